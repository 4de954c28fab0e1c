// Issue 13's scale benchmark (`npm run bench:scale`, after `npm run build`): 200,000 discussions over
// ten topics (half of them in one), one discussion with 1,000,000 replies, 10,000 questions,
// 10,000 creations, the XP ledger rows all of that earned (several authors, one prolific) and
// member.xp/rank that agree with it; bodies pre-rendered once and reused. Each table is filled by
// one INSERT … SELECT over a series (generate_series on PostgreSQL, a recursive CTE on SQLite).
// Then the production build serves it with the anonymous page cache off (PAGE_CACHE=off: the goal
// is the uncached render), and single requests are timed: median of 20 rounds over the pages in turn.
//   --engine sqlite|postgres   default sqlite; postgres creates its own database on
//                              SCALE_PG_ADMIN_URL (default postgres://postgres@127.0.0.1:5432/postgres)
//                              and drops it afterwards
//   RUNS=20                    timed requests per page
import { parseArgs } from "node:util";
import { sql } from "kysely";
import { type Db, type Engine } from "../app/.server/db/connect";
import { renderMarkdown } from "../app/.server/markdown";
import { encodeActivityCursor } from "../app/.server/pagination";
import { toIso } from "../app/lib/dates";
import { excerptOf } from "../app/lib/text";
import { XP } from "../app/lib/xp";
import { discussionPage, replyPage } from "../app/.server/domain/forum/forum-repository";
import { questionPageRows } from "../app/.server/domain/council/council-repository";
import { creationPageRows } from "../app/.server/domain/forge/forge-repository";
import { rebuildCreationCounts } from "../app/.server/db/creation-type-counts";
import { questionSummaries } from "../app/.server/domain/council/council-read-model";
import { creationSummaries } from "../app/.server/domain/forge/forge-read-model";
import { featuredDiscussionSummaries, sectionTopics } from "../app/.server/domain/forum/section-read-model";
import { xpTotals } from "../app/.server/domain/progression/xp-repository";
import { decodeActivityCursor } from "../app/.server/pagination";
import { migrateToLatest } from "../database/migrate";
import { rebuildReplyHours } from "../app/.server/db/reply-hours";
import { benchDatabase, bulkSql, xpAndRanksFromLedger } from "./bench-database";
import { startBuiltSite, summarise, timeRequest } from "./bench-support";

const { values: args } = parseArgs({ options: { engine: { type: "string", default: "sqlite" } } });
if (args.engine !== "sqlite" && args.engine !== "postgres") throw new Error("--engine must be sqlite or postgres");
const engine: Engine = args.engine;
const pgEngine = engine === "postgres";

const DISCUSSIONS = 200_000;
const BIG_TOPIC_DISCUSSIONS = 100_000;
const TOPICS = 10;
const REPLIES = 1_000_000;
const QUESTIONS = 10_000;
const ANSWERS = 20;
const CREATIONS = 10_000;
const AUTHORS = 19; // and one prolific member, who wrote the big discussion and 90% of its replies
const RUNS = Number(process.env.RUNS ?? 20);
const GOAL_MS = 20;

// ------------------------------------------------------------------ the database
const { db, dataDir, siteEnv, cleanUp } = await benchDatabase(engine, "scale", process.env.SCALE_PG_ADMIN_URL);

try {
  await migrateToLatest(db);
  const built = await build(db);
  await measureQueries(db, built);
  await db.destroy();
  await measure(built);
} finally {
  await cleanUp();
}
process.exit(0);

// ------------------------------------------------------------------ building the data
interface Built {
  bigTopic: string;
  big: { id: number; slug: string };
  topicMiddle: string;
  replyMiddle: number;
  questionId: number;
}

async function build(db: Db): Promise<Built> {
  const started = Date.now();
  const now = Date.now();
  const { q, series, ago, step } = bulkSql(engine, now);
  /** INSERT … SELECT over g = 1..count, in one statement. */
  const bulk = async (table: string, columns: string, select: string, count: number) => {
    await sql.raw(`insert into ${table} (${columns}) select ${select} from ${series(count)}`).execute(db);
  };

  const body = "A steady practice: **sit** for ten minutes, then train. See [the manifesto](/manifesto).\n\nAnd a second paragraph.";
  const html = q(renderMarkdown(body));
  const excerpt = q(excerptOf(body));
  const text = q(body);
  const author = (expr: string) => `'author-' || ((${expr}) % ${AUTHORS} + 1)`;
  console.log(`building the data set on ${engine}:`);

  await step(`${AUTHORS + 1} members`, async () => {
    const at = new Date(now - 3 * 365 * 86_400_000).toISOString();
    const ids = ["prolific", ...Array.from({ length: AUTHORS }, (_, i) => `author-${i + 1}`)];
    await db
      .insertInto("member")
      .values(
        ids.map((id) => ({
          id,
          name: id === "prolific" ? "Prolific Member" : `Author ${id.slice(7)}`,
          email: `${id}@example.org`,
          email_verified: false,
          image: null,
          created_at: at,
          updated_at: at,
          handle: id,
          bio: null,
          interests: "[]",
          role: "member",
        })),
      )
      .execute();
  });
  const topics = Array.from({ length: TOPICS }, (_, i) => ({
    id: i === 0 ? "big-topic" : `topic-${i}`,
    section: i < TOPICS / 2 ? ("monastery" as const) : ("battlefield" as const),
  }));
  await step(`${TOPICS} topics`, () =>
    db
      .insertInto("topic")
      .values(
        topics.map((t, i) => ({
          id: t.id,
          section: t.section,
          title: i === 0 ? "The Big Topic" : `Topic ${i}`,
          description: "A topic of the scale benchmark.",
          created_by: "prolific",
          created_at: new Date(now - 3 * 365 * 86_400_000).toISOString(),
          last_activity_at: new Date(now).toISOString(),
        })),
      )
      .execute(),
  );
  // Discussion g: the first BIG_TOPIC_DISCUSSIONS in the big topic, the rest over the others;
  // one every five minutes, the newest now. Discussion 1 is the big one, by the prolific member.
  const topicOf = `case when g <= ${BIG_TOPIC_DISCUSSIONS} then 'big-topic' else 'topic-' || (g % ${TOPICS - 1} + 1) end`;
  await step(`${DISCUSSIONS.toLocaleString("en")} discussions`, () =>
    bulk(
      "discussion",
      "topic_id, author_id, title, slug, body, body_html, excerpt, created_at, last_activity_at",
      `${topicOf}, case when g = 1 then 'prolific' else ${author("g")} end, 'Discussion number ' || g, 'discussion-number-' || g, ${text}, ${html}, ${excerpt}, ${ago(`(${DISCUSSIONS} - g) * 300 + 400000000`)}, ${ago(`(${DISCUSSIONS} - g) * 300`)}`,
      DISCUSSIONS,
    ),
  );
  const big = await db.selectFrom("discussion").select(["id", "slug"]).where("author_id", "=", "prolific").executeTakeFirstOrThrow();
  // One reply every 30 s, the newest a minute ago: the last week holds about 20,000 of them.
  await step(`${REPLIES.toLocaleString("en")} replies to one discussion`, () =>
    bulk(
      "reply",
      "discussion_id, author_id, body, body_html, created_at",
      `${big.id}, case when g % 10 = 0 then ${author("g / 10")} else 'prolific' end, ${text}, ${html}, ${ago(`(${REPLIES} - g) * 30 + 60`)}`,
      REPLIES,
    ),
  );
  await step("discussion and topic counts", async () => {
    await db
      .updateTable("discussion")
      .set({ reply_count: REPLIES, last_activity_at: new Date(now - 60_000).toISOString() })
      .where("id", "=", big.id)
      .execute();
    await sql`update topic set discussion_count = (select count(*) from discussion where discussion.topic_id = topic.id),
      reply_count = (select coalesce(sum(reply_count), 0) from discussion where discussion.topic_id = topic.id),
      last_activity_at = (select max(last_activity_at) from discussion where discussion.topic_id = topic.id)`.execute(db);
  });
  // What the posting pipeline keeps for "busiest in the last 7 days" (ADR 0027), written directly here.
  await step("hourly reply counts (featured discussions)", () => rebuildReplyHours(db));
  await step(`${QUESTIONS.toLocaleString("en")} questions, ${ANSWERS} answers to one`, async () => {
    await bulk(
      "question",
      "author_id, title, body, body_html, excerpt, created_at, last_activity_at",
      `${author("g")}, 'Question number ' || g || '?', ${text}, ${html}, ${excerpt}, ${ago(`(${QUESTIONS} - g) * 3600`)}, ${ago(`(${QUESTIONS} - g) * 3600`)}`,
      QUESTIONS,
    );
    await bulk("question_virtue", "question_id, virtue", `g, case g % 3 when 0 then 'wisdom' when 1 then 'courage' else 'discipline' end`, QUESTIONS);
    await bulk(
      "answer",
      "question_id, author_id, body, body_html, created_at",
      `${QUESTIONS}, ${author("g + 1")}, ${text}, ${html}, ${ago(`(${ANSWERS} - g) * 60`)}`,
      ANSWERS,
    );
    await db.updateTable("question").set({ answer_count: ANSWERS }).where("id", "=", QUESTIONS).execute();
  });
  await step(`${CREATIONS.toLocaleString("en")} creations`, () =>
    bulk(
      "creation",
      "author_id, title, description, type, body, body_html, created_at",
      `${author("g")}, 'Creation number ' || g, 'A piece of writing.', 'writing', ${text}, ${html}, ${ago(`(${CREATIONS} - g) * 3600`)}`,
      CREATIONS,
    ),
  );
  // What the posting pipeline keeps for /forge's category counts (ADR 0036), written directly here.
  await step("creations per category", () => rebuildCreationCounts(db));
  // The ledger: one row per post, as the progression service writes them.
  await step("XP ledger (one row per post)", async () => {
    for (const [table, kind] of [
      ["discussion", "discussion.started"],
      ["reply", "reply.posted"],
      ["question", "question.asked"],
      ["answer", "answer.posted"],
      ["creation", "creation.shared"],
    ] as const) {
      const id = pgEngine ? "id::text" : "cast(id as text)";
      await sql
        .raw(`insert into xp_event (member_id, kind, subject_id, points, created_at) select author_id, '${kind}', ${id}, ${XP[kind]}, created_at from ${table}`)
        .execute(db);
    }
  });
  await step("member.xp and member.rank from the ledger", () => xpAndRanksFromLedger(db));
  // What autovacuum does to a PostgreSQL database that has lived a while (statistics, visibility).
  if (pgEngine) await step("vacuum analyze", () => sql`vacuum analyze`.execute(db));

  const middle = await db
    .selectFrom("discussion")
    .select(["last_activity_at", "id"])
    .where("topic_id", "=", "big-topic")
    .orderBy("last_activity_at", "desc")
    .orderBy("id", "desc")
    .offset(BIG_TOPIC_DISCUSSIONS / 2)
    .limit(1)
    .executeTakeFirstOrThrow();
  const replyMiddle = await db
    .selectFrom("reply")
    .select("id")
    .where("discussion_id", "=", big.id)
    .orderBy("id")
    .offset(REPLIES / 2)
    .limit(1)
    .executeTakeFirstOrThrow();
  const counts = await db
    .selectFrom("xp_event")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  console.log(`  built in ${((Date.now() - started) / 1000).toFixed(1)} s (${Number(counts.n).toLocaleString("en")} XP rows)`);
  return {
    bigTopic: "big-topic",
    big: { id: Number(big.id), slug: big.slug },
    topicMiddle: encodeActivityCursor({ at: toIso(middle.last_activity_at), id: Number(middle.id) }),
    replyMiddle: Number(replyMiddle.id),
    questionId: QUESTIONS,
  };
}

// ------------------------------------------------------------------ timing the queries alone
/**
 * The keyset queries by themselves, as the repositories send them, and the ledger sum that author
 * ranks still make (until they read member.rank): what a page costs in the database, apart from
 * rendering. Median of RUNS after 3 warmup.
 */
async function measureQueries(db: Db, built: Built) {
  const time = async (run: () => Promise<unknown>) => {
    const samples: number[] = [];
    for (let i = 0; i < RUNS + 3; i++) {
      const t = performance.now();
      await run();
      if (i >= 3) samples.push(performance.now() - t);
    }
    return samples.sort((a, b) => a - b)[Math.floor(samples.length / 2)];
  };
  const topicCursor = decodeActivityCursor(built.topicMiddle)!;
  const newest = await db
    .selectFrom("question")
    .select(["created_at", "id"])
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .offset(QUESTIONS / 2)
    .limit(1)
    .executeTakeFirstOrThrow();
  const questionCursor = { at: toIso(newest.created_at), id: Number(newest.id) };
  const queries: [string, () => Promise<unknown>][] = [
    ["topic page query, first", () => discussionPage(db, built.bigTopic, { kind: "first" })],
    ["topic page query, middle", () => discussionPage(db, built.bigTopic, { kind: "after", cursor: topicCursor })],
    ["topic page query, last", () => discussionPage(db, built.bigTopic, { kind: "last" })],
    ["reply page query, first", () => replyPage(db, built.big.id, { kind: "first" })],
    ["reply page query, middle", () => replyPage(db, built.big.id, { kind: "after", cursor: built.replyMiddle })],
    ["reply page query, last", () => replyPage(db, built.big.id, { kind: "last" })],
    ["question page query, middle", () => questionPageRows(db, {}, { kind: "after", cursor: questionCursor }, 20)],
    ["creation page query, last", () => creationPageRows(db, undefined, { kind: "last" }, 20)],
    // What `/` reads (its loader runs these five at once).
    ["/: sectionTopics(monastery, 3)", () => sectionTopics(db, "monastery", 3)],
    ["/: sectionTopics(battlefield, 3)", () => sectionTopics(db, "battlefield", 3)],
    ["/: featuredDiscussionSummaries(2)", () => featuredDiscussionSummaries(db, { limit: 2 })],
    ["/: creationSummaries(3)", () => creationSummaries(db, { limit: 3 })],
    ["/: questionSummaries(3)", () => questionSummaries(db, 3)],
    ["xpTotals of the prolific member (ledger sum)", () => xpTotals(db, ["prolific"])],
    ["xpTotals of one other author (ledger sum)", () => xpTotals(db, ["author-1"])],
  ];
  console.log(`
the queries alone, median of ${RUNS} (${engine}):`);
  for (const [label, run] of queries) console.log(`  ${label.padEnd(44)} ${(await time(run)).toFixed(2).padStart(8)} ms`);
}

// ------------------------------------------------------------------ timing the pages
async function measure(built: Built) {
  const { stop, base } = await startBuiltSite(dataDir, { ...siteEnv, PAGE_CACHE: "off" });
  const topic = `/monastery/${built.bigTopic}`;
  const discussion = `${topic}/${built.big.id}-${built.big.slug}`;
  const pages: [string, string][] = [
    ["/", "/"],
    ["/monastery", "/monastery"],
    ["/battlefield", "/battlefield"],
    [`topic (${BIG_TOPIC_DISCUSSIONS.toLocaleString("en")} discussions), first page`, topic],
    ["topic, middle page", `${topic}?after=${built.topicMiddle}`],
    ["topic, last page", `${topic}?page=last`],
    [`discussion (${REPLIES.toLocaleString("en")} replies), first page`, discussion],
    ["discussion, middle page", `${discussion}?after=${built.replyMiddle}`],
    ["discussion, last page", `${discussion}?page=last`],
    [`question page (${ANSWERS} answers)`, `/council/${built.questionId}`],
    ["/council", "/council"],
    ["/forge", "/forge"],
  ];
  // A pass over every page first: the server is measured warm, as it is in service, and not the
  // first page listed while V8 is still compiling the render path every page shares. Then the pages
  // take turns, one request each per round, so a slow stretch of the machine (GC, another process)
  // falls on every page alike instead of on whichever page was being timed then.
  for (const [, url] of pages) for (let i = 0; i < 5; i++) await timeRequest(base, url);
  const samples = new Map<string, number[]>(pages.map(([, url]) => [url, []]));
  for (let round = 0; round < RUNS; round++) {
    for (const [, url] of pages) samples.get(url)!.push(await timeRequest(base, url));
  }
  const medians = new Map<string, number>();
  console.log(`\nsingle anonymous requests, page cache off, median of ${RUNS} rounds over the pages in turn, after a warm-up pass (${engine}):`);
  console.log(`  ${"page".padEnd(44)} ${"median".padStart(9)} ${"p95".padStart(9)}`);
  for (const [label, url] of pages) {
    const { median, p95 } = summarise(samples.get(url)!);
    medians.set(url, median);
    const flag = median > GOAL_MS ? `  over ${GOAL_MS} ms` : "";
    console.log(`  ${label.padEnd(44)} ${median.toFixed(1).padStart(6)} ms ${p95.toFixed(1).padStart(6)} ms${flag}`);
  }
  const spread = (first: string, last: string) => (((medians.get(last)! - medians.get(first)!) / medians.get(first)!) * 100).toFixed(0);
  console.log(
    `\n  last page against first: topic ${spread(topic, `${topic}?page=last`)}%, discussion ${spread(discussion, `${discussion}?page=last`)}% (goal within ±20%)`,
  );
  const over = [...medians.values()].filter((m) => m > GOAL_MS).length;
  console.log(`  ${over} of ${pages.length} pages over ${GOAL_MS} ms`);
  await stop();
}
