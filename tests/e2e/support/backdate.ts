import { withSiteDatabase } from "./database";

/**
 * Moves a reply's posting time back by some minutes, so that an edit made now comes after the edit
 * history's grace period (issue 32) without the test waiting five minutes. Written through Kysely, as
 * database.ts's set-ups are, so it works on both engines.
 */
export async function backdateReply(id: number, minutes: number) {
  await withSiteDatabase((db) =>
    db
      .updateTable("reply")
      .set({ created_at: new Date(Date.now() - minutes * 60_000).toISOString() })
      .where("id", "=", id)
      .execute(),
  );
}
