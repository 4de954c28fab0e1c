import type { Db } from "../../db/connect";

// The rest of what a deleted account leaves behind outside the member's own tables (ADR 0023).

/** Queued and sent mails to the old address: their text holds the name and the address. */
export async function deleteMailTo(db: Db, email: string) {
  await db.deleteFrom("mail_outbox").where("to_address", "=", email).execute();
}

/** Rate-limit rows keyed by the address or the member (sign-in failures, settings attempts). */
export async function deleteRateLimitKeys(db: Db, memberId: string, email: string) {
  await db
    .deleteFrom("rate_limit_hit")
    .where((eb) =>
      eb.or([
        eb("key", "=", `signin:email:${email}`),
        eb("key", "=", `reset:email:${email}`),
        eb("key", "like", `%:member:${memberId}`),
      ]),
    )
    .execute();
}

/** A deleted account is no advisor: it would otherwise be featured as "[deleted member]". */
export async function deleteAdvisor(db: Db, memberId: string) {
  await db.deleteFrom("advisor").where("member_id", "=", memberId).execute();
}
