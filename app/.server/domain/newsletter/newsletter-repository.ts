import type { Db } from "../../db/connect";

export async function findSubscriptionByEmail(db: Db, email: string) {
  return db.selectFrom("newsletter_subscription").select(["id", "status", "token", "confirmation_sent_at"]).where("email", "=", email).executeTakeFirst();
}

/**
 * A new pending subscription; a parallel one for the same address wins and this does nothing
 * (returns false: the winner queues the mail with its own token).
 */
export async function insertPendingSubscription(db: Db, email: string, token: string, at: string) {
  const result = await db
    .insertInto("newsletter_subscription")
    .values({ email, token, status: "pending", created_at: at, confirmation_sent_at: at })
    .onConflict((oc) => oc.column("email").doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** Makes a subscription pending again, with the token its next mail carries. */
export async function markPending(db: Db, id: number, token: string, at: string) {
  await db
    .updateTable("newsletter_subscription")
    .set({ status: "pending", token, confirmation_sent_at: at, unsubscribed_at: null })
    .where("id", "=", id)
    .execute();
}

export async function findSubscriptionByToken(db: Db, token: string) {
  return db.selectFrom("newsletter_subscription").select(["email", "status"]).where("token", "=", token).executeTakeFirst();
}

/** Confirms a pending (or already confirmed) subscription; false when the token matches none. */
export async function markConfirmed(db: Db, token: string, at: string) {
  const result = await db
    .updateTable("newsletter_subscription")
    .set({ status: "confirmed", confirmed_at: at })
    .where("token", "=", token)
    .where("status", "in", ["pending", "confirmed"])
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function markUnsubscribed(db: Db, token: string, at: string) {
  const result = await db
    .updateTable("newsletter_subscription")
    .set({ status: "unsubscribed", unsubscribed_at: at })
    .where("token", "=", token)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** A deleted account's address leaves the list entirely (ADR 0023), whatever its state. */
export async function deleteSubscriptionByEmail(db: Db, email: string) {
  await db.deleteFrom("newsletter_subscription").where("email", "=", email.toLowerCase()).execute();
}
