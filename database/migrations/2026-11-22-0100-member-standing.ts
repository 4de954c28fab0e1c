import { sql, type Kysely } from "kysely";

// Frozen: never edit a migration that has shipped; add a new one instead.

/**
 * Each member's XP total and rank on the member row (issue 13), kept by the XP ledger's own
 * transaction from now on, so that lists of authors read two columns instead of summing the ledger.
 * The backfill applies the rank rule as it stands today (app/lib/ranks.ts, PRODUCT.md §3), copied
 * here because a migration must not change when the app's rule does.
 */
const RANKS = [
  ["initiate", 0],
  ["acolyte", 50],
  ["disciple", 150],
  ["sage", 400],
  ["samurai", 800],
  ["warlord", 1500],
  ["master", 3000],
] as const;
const VIRTUES = ["discipline", "courage", "wisdom", "honor", "resilience", "compassion"];
const MASTER_VIRTUE_COMPLETIONS = 3; // virtue level 2

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("member").addColumn("xp", "integer", (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable("member").addColumn("rank", "text", (c) => c.notNull().defaultTo("initiate")).execute();
  await sql`update member set xp = coalesce((select sum(points) from xp_event where xp_event.member_id = member.id), 0)`.execute(db);

  const withXp = await db.selectFrom("member").select(["id", "xp"]).where("xp", ">=", RANKS[1][1]).execute();
  const masters = new Set<string>();
  const completions = await db
    .selectFrom("challenge_attempt as a")
    .innerJoin("challenge_virtue as v", "v.challenge_id", "a.challenge_id")
    .select(["a.member_id", "v.virtue", (eb) => eb.fn.count<number>("a.challenge_id").distinct().as("completed")])
    .where("a.status", "=", "completed")
    .groupBy(["a.member_id", "v.virtue"])
    .execute();
  const strong = new Map<string, Set<string>>();
  for (const row of completions) {
    if (Number(row.completed) < MASTER_VIRTUE_COMPLETIONS) continue;
    const virtues = strong.get(row.member_id) ?? new Set<string>();
    virtues.add(row.virtue);
    strong.set(row.member_id, virtues);
  }
  for (const [memberId, virtues] of strong) if (VIRTUES.every((v) => virtues.has(v))) masters.add(memberId);
  for (const member of withXp) {
    let rank: string = RANKS[0][0];
    for (const [id, minXp] of RANKS) {
      if (Number(member.xp) < minXp) break;
      if (id === "master" && !masters.has(member.id)) break;
      rank = id;
    }
    await db.updateTable("member").set({ rank }).where("id", "=", member.id).execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("member").dropColumn("rank").execute();
  await db.schema.alterTable("member").dropColumn("xp").execute();
}
