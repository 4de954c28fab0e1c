// What the benchmarks that build a data set share: the data folder and database they build it in
// (either engine), and the SQL pieces their INSERT … SELECTs are written with.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { createDatabase, type Db, type Engine } from "../app/.server/db/connect";
import { rankFor } from "../app/lib/ranks";
import { member } from "../tests/factories/member";
import { scratchPostgres } from "./scratch-postgres";

/**
 * The data folder and database a benchmark builds its data in, on either engine, both removed by
 * `cleanUp` (once, whether the run ends, fails or is interrupted by Ctrl-C). `siteEnv` points a site
 * started on `dataDir` at the same database.
 */
export async function benchDatabase(engine: Engine, label: string, adminUrl?: string) {
  const pgEngine = engine === "postgres";
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `ipos-${label}-`));
  const scratch = scratchPostgres(label, `ipos-bench-${label}`, adminUrl);
  let dropped = false;
  async function cleanUp() {
    if (dropped) return;
    dropped = true;
    if (pgEngine) await scratch.drop().catch((e) => console.error(e));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => void cleanUp().then(() => process.exit(130)));

  if (pgEngine) await scratch.create();
  const db: Db = pgEngine ? createDatabase({ engine, url: scratch.url, poolSize: 2 }) : createDatabase({ engine, sqlitePath: path.join(dataDir, "site.db") });
  const siteEnv: Record<string, string> = pgEngine ? { DATABASE_URL: scratch.url } : {};
  return { db, dataDir, siteEnv, cleanUp };
}

/**
 * The SQL pieces a data set is built with, on either engine, with `now` as the clock: `q` quotes a
 * text, `series` is the rows g = 1..count as a FROM item, `ago` and `after` are instants in the
 * columns' own type, and `step` runs one step of the build and prints how long it took.
 */
export function bulkSql(engine: Engine, now: number) {
  const pgEngine = engine === "postgres";
  return {
    q: (text: string) => `'${text.replaceAll("'", "''")}'`,
    series: (count: number) =>
      pgEngine
        ? `generate_series(1, ${count}) as s(g)`
        : `(with recursive s(g) as (select 1 union all select g + 1 from s where g < ${count}) select g from s) as s`,
    /** An instant `secondsAgo` (an SQL expression) before now. */
    ago: (secondsAgo: string) =>
      pgEngine
        ? `(timestamptz '${new Date(now).toISOString()}' - (${secondsAgo}) * interval '1 second')`
        : `strftime('%Y-%m-%dT%H:%M:%fZ', '${new Date(now).toISOString()}', '-' || (${secondsAgo}) || ' seconds')`,
    /** The column `at` plus `seconds` (an SQL expression). */
    after: (at: string, seconds: string) =>
      pgEngine ? `(${at} + (${seconds}) * interval '1 second')` : `strftime('%Y-%m-%dT%H:%M:%fZ', ${at}, '+' || (${seconds}) || ' seconds')`,
    step: async (label: string, run: () => Promise<unknown>) => {
      const t = Date.now();
      await run();
      console.log(`  ${label.padEnd(58)} ${((Date.now() - t) / 1000).toFixed(1).padStart(6)} s`);
    },
  };
}

/**
 * member.xp and member.rank from the XP ledger, as the posting pipeline would have kept them for the
 * posts a build wrote straight into the tables; `idLike` limits it to the members the build made.
 */
export async function xpAndRanksFromLedger(db: Db, idLike = "%") {
  await sql`update member set xp = coalesce((select sum(points) from xp_event where xp_event.member_id = member.id), 0) where id like ${idLike}`.execute(db);
  for (const m of await db.selectFrom("member").select(["id", "xp"]).where("id", "like", idLike).execute()) {
    await db
      .updateTable("member")
      .set({ rank: rankFor(Number(m.xp)).id })
      .where("id", "=", m.id)
      .execute();
  }
}

/**
 * The member "bench" and the one Monastery topic it made, which a benchmark's posts go in; the
 * counts are those of the posts the benchmark writes beside it.
 */
export async function benchTopic(
  db: Db,
  topic: { id: string; title: string; description: string; createdAt: Date; lastActivityAt: Date; discussions: number; replies?: number },
) {
  await member(db, { id: "bench", name: "Bench Member", email: "bench@example.org", handle: "bench", createdAt: topic.createdAt });
  await db
    .insertInto("topic")
    .values({
      id: topic.id,
      section: "monastery",
      title: topic.title,
      description: topic.description,
      created_by: "bench",
      created_at: topic.createdAt.toISOString(),
      last_activity_at: topic.lastActivityAt.toISOString(),
      discussion_count: topic.discussions,
      reply_count: topic.replies ?? 0,
    })
    .execute();
}
