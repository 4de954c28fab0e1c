import type { Executor } from "../../db/executor";

export async function saveDraft(db: Executor, draft: { memberId: string; place: string; body: string; label: string; url: string; at: string }) {
  await db
    .insertInto("draft")
    .values({ member_id: draft.memberId, place: draft.place, body: draft.body, label: draft.label, url: draft.url, updated_at: draft.at })
    .onConflict((oc) => oc.columns(["member_id", "place"]).doUpdateSet({ body: draft.body, label: draft.label, url: draft.url, updated_at: draft.at }))
    .execute();
}

export async function deleteDraft(db: Executor, memberId: string, place: string) {
  await db.deleteFrom("draft").where("member_id", "=", memberId).where("place", "=", place).execute();
}

export async function findDraft(db: Executor, memberId: string, place: string) {
  return db.selectFrom("draft").select(["body", "updated_at"]).where("member_id", "=", memberId).where("place", "=", place).executeTakeFirst();
}

/** A member's drafts, the latest first. */
export async function draftsOf(db: Executor, memberId: string, limit: number) {
  return db
    .selectFrom("draft")
    .select(["place", "label", "url", "updated_at"])
    .where("member_id", "=", memberId)
    .orderBy("updated_at", "desc")
    .limit(limit)
    .execute();
}
