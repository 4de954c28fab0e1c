import { attempt, challenge, type ChallengeOverrides } from "../../factories/challenge";
import { memberIdByEmail } from "../../factories/member";
import { addDays, localDay } from "~/lib/calendar-days";
import { withSiteDatabase } from "./database";

/**
 * A published challenge with the member already on it and checked in on the days before today (in
 * the member's own zone), written through the factories: the browser then does today's check-in.
 * The app keeps no test clock; the past is seeded, the present is clicked.
 */
export async function seedChallengeUnderWay(
  email: string,
  options: ChallengeOverrides & { checkedInDaysAgo: number[] },
): Promise<{ id: number; title: string }> {
  return withSiteDatabase(async (db) => {
    const memberId = await memberIdByEmail(db, email);
    const zone = (await db.selectFrom("member").select("time_zone").where("id", "=", memberId).executeTakeFirstOrThrow()).time_zone;
    const today = localDay(new Date(), zone);
    const created = await challenge(db, options);
    const startsOn = addDays(today, -Math.max(...options.checkedInDaysAgo));
    await attempt(db, memberId, created.id, {
      startsOn,
      endsOn: addDays(startsOn, created.lengthDays - 1),
      days: options.checkedInDaysAgo.map((n) => addDays(today, -n)).sort(),
    });
    return { id: created.id, title: options.title ?? "" };
  });
}
