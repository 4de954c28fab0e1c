import { xpTotals } from "~/.server/domain/progression/xp-repository";
import type { CreationType } from "~/lib/domain-values";
import { memberIdByEmail } from "../../factories/member";
import { withSiteDatabase } from "./database";
import { renderMarkdown } from "~/.server/markdown";
import { moveCreationCount } from "~/.server/domain/forge/forge-repository";

/*
 * Forge set-up in the server's database, on either engine (see database.ts): sharing has its own
 * form and spec (/forge/new); the engagement spec only needs creations to like and comment on.
 */

/** A creation by the member with this email, as the share form would store it; returns its id. */
export async function shareCreation(email: string, fields: { title: string; type?: CreationType; at?: Date }) {
  return withSiteDatabase(async (db) => {
    const authorId = await memberIdByEmail(db, email);
    const row = await db
      .insertInto("creation")
      .values({
        author_id: authorId,
        title: fields.title,
        description: `${fields.title}, for the browser suite.`,
        type: fields.type ?? "writing",
        body: "Shaped on the path.",
        body_html: renderMarkdown("Shaped on the path."),
        created_at: (fields.at ?? new Date()).toISOString(),
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    // As the posting pipeline would: the creation counts in its category on /forge (ADR 0036).
    await moveCreationCount(db, Number(row.id), 1);
    return Number(row.id);
  });
}

/** The XP on the ledger of the member with this email. */
export async function xpOf(email: string) {
  return withSiteDatabase(async (db) => {
    const id = await memberIdByEmail(db, email);
    return (await xpTotals(db, [id])).get(id) ?? 0;
  });
}
