import { sql } from "kysely";
import type { Db } from "../../db/connect";

// The rest of what a deleted account leaves behind outside the member's own tables (ADR 0023).

/** Queued and sent mails to the old address: their text holds the name and the address. */
export async function deleteMailTo(db: Db, email: string) {
  await db.deleteFrom("mail_outbox").where("to_address", "=", email).execute();
}

/**
 * Rate-limit rows keyed by the address, the member or the member's trusted devices (sign-in
 * failures, reset and sign-in link mails, mails about joins with the address, settings attempts).
 * The devices' keys are found through `trusted_device`: run this before the devices are deleted.
 */
export async function deleteRateLimitKeys(db: Db, memberId: string, email: string) {
  await db
    .deleteFrom("rate_limit_hit")
    .where((eb) =>
      eb.or([
        eb("key", "in", [`signin:email:${email}`, `reset:email:${email}`, `signin-link:email:${email}`, `join-attempt-mail:${email}`]),
        eb("key", "like", `%:member:${memberId}`),
        eb(
          "key",
          "in",
          eb
            .selectFrom("trusted_device")
            .select((d) => sql<string>`${"signin:device:"} || ${d.ref("token_hash")}`.as("key"))
            .where("member_id", "=", memberId),
        ),
      ]),
    )
    .execute();
}
