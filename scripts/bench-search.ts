// Issue 30's search benchmark (`npm run bench:search`), against its "Speed" goals: search p95 at most
// 50 ms and p99 at most 100 ms at 1,000,000 posts on both engines, over a realistic mix of queries;
// the index built for the scale set in minutes; a post's write time grown by at most 20% by indexing.
//
// It builds a scale set of POSTS posts in a database of its own: 200 members, six topics over both
// sections, discussions (20%), replies (70%) spread over them, questions (2.5%) and their answers
// (7.5%). Bodies are prose of 30–150 words drawn with Zipf frequencies from a vocabulary of 20,000
// words (seeded pseudo-words and a few hundred English ones), so a few words are in most posts and
// most words in few, as in real text. Rows go in by multi-row INSERTs of 500. Then it times:
//   1. the index build: rebuildSearchIndex in one transaction, as the server's first start runs it;
//   2. searchResults (what /search calls) over a mix of 40% one word, 30% two words, 15% a two-word
//      phrase from a real body and 15% a prefix (`medit*`): p50/p95/p99/max, whole mix and per type,
//      by relevance, then newest first, then the second page (the first page's `next` cursor);
//      a search ranks its newest RANKED_WINDOW matches only (ADR 0063), printed with the mix;
//   3. 200 replies posted through postReply, against the index step (indexSearch) alone;
//   4. the sitemap: its index and whole parts of 50,000 addresses.
// Everything is seeded: both engines get the same posts and the same queries.
//   --engine sqlite|postgres   default sqlite; postgres creates its own database on
//                              SEARCH_PG_ADMIN_URL (default postgres://postgres@127.0.0.1:5432/postgres)
//                              and drops it afterwards (also on Ctrl-C)
//   POSTS=1000000              posts in the scale set
//   RUNS=500                   timed queries of the mix by relevance (after 30 warm-up queries);
//                              the newest-first and second-page runs time min(RUNS, 200) each
//   SEARCH_PG_KEEP=name        (postgres) the database's name, kept afterwards: a later run with the
//                              same name and POSTS times the queries on it without building again
//                              (REINDEX=1 rebuilds its index), so a change to search is measured in
//                              minutes rather than the build's quarter of an hour
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes, randomUUID } from "node:crypto";
import { parseArgs } from "node:util";
import { sql } from "kysely";
import pg from "pg";
import pino from "pino";
import { createAuth } from "../app/.server/auth";
import type { AppServices, Viewer } from "../app/.server/context";
import { createDatabase, type Db, type Engine } from "../app/.server/db/connect";
import type { Executor } from "../app/.server/db/executor";
import { indexSearch, rebuildSearchIndex } from "../app/.server/db/search/search-documents";
import { postReply } from "../app/.server/domain/forum/forum-service";
import { resetPasswordMail } from "../app/.server/domain/accounts/password-reset";
import { searchResults, type SearchFilters } from "../app/.server/domain/search/search-read-model";
import { loadEnv } from "../app/.server/env";
import { inProcessLiveBus } from "../app/.server/live/live-bus";
import { createMailer } from "../app/.server/mail/mailer";
import { enqueueMail } from "../app/.server/mail/outbox";
import { databaseMediaStore } from "../app/.server/media/media-store-database";
import { sitemapPart, sitemapParts } from "../app/.server/domain/discovery/sitemap-read-model";
import { decodeSearchCursor } from "../app/.server/pagination";
import { RANKED_WINDOW, type SearchSort } from "../app/.server/db/search/search-types";
import { slugify } from "../app/lib/slug";
import { excerptOf } from "../app/lib/text";
import { VIRTUE_IDS } from "../app/lib/virtues";
import { migrateToLatest } from "../database/migrate";

const { values: args } = parseArgs({ options: { engine: { type: "string", default: "sqlite" } } });
if (args.engine !== "sqlite" && args.engine !== "postgres") throw new Error("--engine must be sqlite or postgres");
const engine: Engine = args.engine;
const pgEngine = engine === "postgres";

const POSTS = Number(process.env.POSTS ?? 1_000_000);
const RUNS = Number(process.env.RUNS ?? 500);
const WARMUP = 30;
// The other two orders cost as much per query as the first: fewer runs keep the whole benchmark short.
const NEWEST_RUNS = Math.min(RUNS, 200);
const SECOND_PAGE_RUNS = Math.min(RUNS, 200);
const WRITES = 200;
const SITEMAP_RUNS = 5;
const WRITE_WARMUP = 10;

const MEMBERS = 200;
const TOPICS = [
  { id: "sitting-practice", section: "monastery", title: "Sitting Practice" },
  { id: "breath-and-focus", section: "monastery", title: "Breath and Focus" },
  { id: "daily-discipline", section: "monastery", title: "Daily Discipline" },
  { id: "strength-training", section: "battlefield", title: "Strength Training" },
  { id: "running-and-endurance", section: "battlefield", title: "Running and Endurance" },
  { id: "martial-arts", section: "battlefield", title: "Martial Arts" },
] as const;
const DISCUSSIONS = Math.round(POSTS * 0.2);
const QUESTIONS = Math.round(POSTS * 0.025);
const ANSWERS = Math.round(POSTS * 0.075);
const REPLIES = POSTS - DISCUSSIONS - QUESTIONS - ANSWERS;
/** Rows per INSERT statement, and statements per transaction (SQLite commits once per 10,000 rows). */
const BATCH = 500;
const BATCHES_PER_TRANSACTION = 20;

const VOCABULARY = 20_000;
/** Zipf's exponent: about 1 in natural language (the r-th word is 1/r as frequent as the first). */
const ZIPF = 1.0;
/** The most frequent words, which nobody searches for ("the", "and"): query words skip them. */
const SKIPPED = 30;

const GOAL_P95_MS = 50;
const GOAL_P99_MS = 100;
const GOAL_WRITE_GROWTH = 20;

// ------------------------------------------------------------------ the database
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "ipos-search-"));
const adminUrl = process.env.SEARCH_PG_ADMIN_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const keptName = pgEngine ? process.env.SEARCH_PG_KEEP : undefined;
if (keptName !== undefined && !/^[a-z_][a-z0-9_]{0,62}$/.test(keptName)) throw new Error("SEARCH_PG_KEEP must be a plain lower-case name");
const pgName = keptName ?? `ipos_search_${randomBytes(6).toString("hex")}`;
const databaseUrl = new URL(adminUrl);
databaseUrl.pathname = `/${pgName}`;
async function admin(statement: string) {
  const client = new pg.Client({ connectionString: adminUrl, application_name: "ipos-bench-search" });
  await client.connect();
  try {
    return await client.query(statement);
  } finally {
    await client.end();
  }
}
let cleaned = false;
async function cleanUp() {
  if (cleaned) return;
  cleaned = true;
  // WITH (FORCE): a Ctrl-C lands while the pool still holds connections to it.
  if (pgEngine && keptName === undefined) await admin(`drop database if exists "${pgName}" with (force)`).catch((e) => console.error(e));
  fs.rmSync(dataDir, { recursive: true, force: true });
}
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => void cleanUp().then(() => process.exit(130)));

// ------------------------------------------------------------------ seeded randomness
/** mulberry32: small, fast and good enough for test data; the same seed gives the same posts on both engines. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Draws ranks 0..n-1 with weight 1/(rank+1)^s: cumulative weights once, then a binary search per
 * draw, as the body generator draws about a hundred million words. `from` leaves out the first ranks.
 */
function zipf(n: number, s: number) {
  const cumulative = new Float64Array(n);
  let total = 0;
  for (let r = 0; r < n; r++) cumulative[r] = total += 1 / (r + 1) ** s;
  return (random: () => number, from = 0) => {
    const low = from === 0 ? 0 : cumulative[from - 1]!;
    const u = low + random() * (total - low);
    let lo = from;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cumulative[mid]! > u) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  };
}

const between = (random: () => number, min: number, max: number) => min + Math.floor(random() * (max - min + 1));

// ------------------------------------------------------------------ the vocabulary
// The 30 most frequent words are English function words, as in any English text; a few hundred
// words of the site's subjects are spread over the next few thousand ranks, so that "meditation" or
// "deadlift" is common but not everywhere; seeded pseudo-words fill the other ranks and the long tail.
const FUNCTION_WORDS = "the and to of a i in is it that for my you with on this but was be have not at as so when what do me or from".split(" ");
const SUBJECT_WORDS = `meditation breath breathing discipline running strength morning evening practice training mind body focus calm peace
courage wisdom honor resilience compassion habit routine workout squat deadlift press pullup pushup stretch yoga mobility sleep rest
recovery fasting diet protein walk hike cold shower silence journal gratitude patience anger fear anxiety stress attention awareness
mindfulness sitting posture spine shoulders knees injury pain progress goal week month year teacher student monk warrior sword martial
karate judo boxing kettlebell barbell dumbbell sprint marathon endurance stamina heart lungs energy fatigue motivation willpower struggle
failure success lesson book reading stoic seneca zen buddha mantra chant prayer retreat forest mountain river ocean sunrise sunset night
coffee tea water food vegetables rice bread sugar alcohol phone screen family friends partner children work job career money city
village garden kitchen gym dojo mat cushion bench rack plates weight reps sets tempo interval hill trail track pace mile kilometer
distance race coach mentor community circle group session class lesson beginner advanced intermediate level rank challenge streak day
hour minute second count exhale inhale nostril belly chest diaphragm visualization gaze candle bell timer app notebook pen letter
question answer advice story experience insight clarity noise distraction craving urge temptation comfort discomfort cold heat sauna
swim swimming cycling bike rowing climbing bouldering grip forearm core plank bridge handstand flexibility hamstring hips ankle wrist
elbow back neck jaw tension release relax surrender acceptance impermanence suffering joy contentment humility kindness generosity
honesty integrity duty service sacrifice loyalty respect trust promise vow oath shield armor bow arrow archery spear staff kata form
sparring opponent fight victory defeat loss grief healing doctor therapy journaling writing poetry music silence solitude travel
pilgrimage temple monastery battlefield council forge creation sketch painting drawing song guitar piano drum flute`
  .split(/\s+/)
  .filter((w, i, all) => w !== "" && all.indexOf(w) === i);
// Whole English words a pseudo-word could happen to spell: PostgreSQL drops some as stop words.
const NOT_PSEUDO = new Set(
  `${FUNCTION_WORDS.join(" ")} ${SUBJECT_WORDS.join(" ")} about above after again against being below between before during further
having other ought their there these those through under until where which while whose yourself themselves ourselves itself himself
herself myself doing should would could hers theirs yours since shall might never often later`.split(/\s+/),
);
const ONSETS = "b c d f g h k l m n p r s t v z br dr gr kr pl st tr sh th ch sk sl".split(" ");
const NUCLEI = "a e i o u a e i o ai ea ou io".split(" ");
const CODAS = ["", "", "", "", "n", "r", "l", "s", "m", "k", "th", "nd", "st"];

function makeVocabulary(): string[] {
  const random = mulberry32(0x5eed0001);
  const pseudo: string[] = [];
  const seen = new Set(NOT_PSEUDO);
  while (pseudo.length < VOCABULARY - FUNCTION_WORDS.length - SUBJECT_WORDS.length) {
    let word = "";
    // Mostly two or three syllables: words of about eight letters, as a large English vocabulary has.
    const r = random();
    const syllables = r < 0.55 ? 2 : r < 0.93 ? 3 : 4;
    for (let s = 0; s < syllables; s++) {
      word += ONSETS[between(random, 0, ONSETS.length - 1)]! + NUCLEI[between(random, 0, NUCLEI.length - 1)]!;
      if (s === syllables - 1 || random() < 0.15) word += CODAS[between(random, 0, CODAS.length - 1)]!;
    }
    if (word.length < 5 || seen.has(word)) continue;
    seen.add(word);
    pseudo.push(word);
  }
  const words: Array<string | undefined> = new Array(VOCABULARY);
  FUNCTION_WORDS.forEach((w, i) => (words[i] = w));
  for (const w of SUBJECT_WORDS) {
    let rank: number;
    do rank = between(random, SKIPPED, 3000);
    while (words[rank] !== undefined);
    words[rank] = w;
  }
  let next = 0;
  // Array.from, not map: map skips the holes the pseudo-words fill.
  return Array.from(words, (w) => w ?? pseudo[next++]!);
}

const vocabulary = makeVocabulary();
const drawRank = zipf(VOCABULARY, ZIPF);

// ------------------------------------------------------------------ posts' text
const capitalised = (word: string) => word[0]!.toUpperCase() + word.slice(1);
const escapeHtml = (text: string) => text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;");

/**
 * A body of 30–150 words: sentences of 5–16 words, two to four to a paragraph, now and then a word
 * in bold (Markdown the index strips). `ranks` gets the words drawn, for phrase queries.
 */
function makeBody(random: () => number, ranks?: number[]): { body: string; html: string } {
  const length = between(random, 30, 150);
  const paragraphs: string[] = [];
  let paragraph: string[] = [];
  let sentences = 0;
  for (let written = 0; written < length;) {
    const sentence: string[] = [];
    const count = Math.min(between(random, 5, 16), length - written);
    for (let i = 0; i < count; i++) {
      const rank = drawRank(random);
      ranks?.push(rank);
      let word = i === 0 ? capitalised(vocabulary[rank]!) : vocabulary[rank]!;
      if (random() < 0.01) word = `**${word}**`;
      else if (i < count - 1 && random() < 0.06) word += ",";
      sentence.push(word);
    }
    written += count;
    const end = random();
    paragraph.push(sentence.join(" ") + (end < 0.85 ? "." : end < 0.95 ? "?" : "!"));
    if (++sentences >= between(random, 2, 4)) {
      paragraphs.push(paragraph.join(" "));
      paragraph = [];
      sentences = 0;
    }
  }
  if (paragraph.length > 0) paragraphs.push(paragraph.join(" "));
  // Pages are not rendered here: a trivial rendering stands in for the Markdown's.
  const html = paragraphs.map((p) => `<p>${escapeHtml(p).replace(/\*\*([^*]+)\*\*/g, "<strong>$1</strong>")}</p>`).join("\n");
  return { body: paragraphs.join("\n\n"), html };
}

function makeTitle(random: () => number, question: boolean): string {
  const words = Array.from({ length: between(random, 3, 8) }, () => vocabulary[drawRank(random)]!);
  return capitalised(words.join(" ")) + (question ? "?" : "");
}

// ------------------------------------------------------------------ building the data
interface Built {
  members: Viewer[];
  /** Word ranks of some bodies, in order: phrase queries are taken from them. */
  sampleBodies: number[][];
}

async function build(): Promise<Built> {
  const started = performance.now();
  const random = mulberry32(0x5eed0002);
  const now = Date.now();
  const DAY = 86_400_000;
  const span = 3 * 365 * DAY;
  const iso = (ms: number) => new Date(ms).toISOString();
  const step = async (label: string, run: () => Promise<unknown>) => {
    const t = performance.now();
    await run();
    console.log(`  ${label.padEnd(58)} ${((performance.now() - t) / 1000).toFixed(1).padStart(7)} s`);
  };
  /**
   * `count` rows made by `make` (in order), written by `write` 500 to a statement and 10,000 to a
   * transaction: few round trips and commits, while no transaction grows without bound.
   */
  const fill = async <R>(count: number, make: (i: number) => R, write: (trx: Executor, rows: R[]) => Promise<unknown>) => {
    const t = performance.now();
    for (let start = 0; start < count; start += BATCH * BATCHES_PER_TRANSACTION) {
      await db.transaction().execute(async (trx) => {
        const end = Math.min(count, start + BATCH * BATCHES_PER_TRANSACTION);
        for (let from = start; from < end; from += BATCH) {
          await write(
            trx,
            Array.from({ length: Math.min(BATCH, end - from) }, (_, j) => make(from + j)),
          );
        }
      });
      const done = Math.min(count, start + BATCH * BATCHES_PER_TRANSACTION);
      if (count >= 200_000 && done % 100_000 === 0 && done < count) {
        console.log(`    … ${done.toLocaleString("en")} rows, ${((performance.now() - t) / 1000).toFixed(1)} s`);
      }
    }
  };
  // Phrase queries come from about 2,000 bodies spread over the whole set.
  const sampleEvery = Math.max(1, Math.floor(POSTS / 2000));
  const sampleBodies: number[][] = [];
  let bodies = 0;
  const body = () => {
    const ranks = bodies++ % sampleEvery === 0 ? [] : undefined;
    const made = makeBody(random, ranks);
    if (ranks) sampleBodies.push(ranks);
    return made;
  };
  console.log(
    `building the scale set: ${DISCUSSIONS.toLocaleString("en")} discussions, ${REPLIES.toLocaleString("en")} replies, ` +
      `${QUESTIONS.toLocaleString("en")} questions, ${ANSWERS.toLocaleString("en")} answers`,
  );

  // Some members write much more than others (a Zipf of their own, flatter than the words').
  const drawMember = zipf(MEMBERS, 0.8);
  const members: Viewer[] = Array.from({ length: MEMBERS }, (_, i) => ({
    id: `member-${i + 1}`,
    name: `${capitalised(vocabulary[between(random, 3000, VOCABULARY - 1)]!)} ${capitalised(vocabulary[between(random, 3000, VOCABULARY - 1)]!)}`,
    email: `member-${i + 1}@example.org`,
    handle: `member-${i + 1}`,
    role: "member",
    avatar: null,
  }));
  const author = () => members[drawMember(random)]!.id;
  await step(`${MEMBERS} members`, () =>
    db
      .insertInto("member")
      .values(
        members.map((m) => ({
          id: m.id,
          name: m.name,
          email: m.email,
          email_verified: false,
          image: null,
          created_at: iso(now - span - 30 * DAY),
          updated_at: iso(now - span - 30 * DAY),
          handle: m.handle,
          bio: null,
          interests: "[]",
          role: m.role,
        })),
      )
      .execute(),
  );

  // Where every post goes and when, decided before any row is written: a discussion's reply count
  // and last activity, and a topic's counts, go in with their rows instead of updates afterwards.
  // Discussions and questions are spread evenly over three years; a reply or answer comes within two
  // weeks of what it answers; ids rise with time, as they do on the site.
  const discussionAt = (d: number) => now - span - 14 * DAY + ((d + 0.5) / DISCUSSIONS) * span;
  const questionAt = (q: number) => now - span - 14 * DAY + ((q + 0.5) / QUESTIONS) * span;
  const topicOf = Uint8Array.from({ length: DISCUSSIONS }, () => Math.floor(random() * TOPICS.length));
  const childrenOf = (count: number, parents: number, parentAt: (p: number) => number) => {
    const parent = new Int32Array(count);
    const at = new Float64Array(count);
    for (let i = 0; i < count; i++) {
      parent[i] = Math.floor(random() * parents);
      at[i] = Math.min(now - 60_000, parentAt(parent[i]!) + random() * 14 * DAY);
    }
    const order = Uint32Array.from({ length: count }, (_, i) => i).sort((a, b) => at[a]! - at[b]!);
    const childCount = new Int32Array(parents);
    const lastAt = Float64Array.from({ length: parents }, (_, p) => parentAt(p));
    for (let i = 0; i < count; i++) {
      childCount[parent[i]!]!++;
      lastAt[parent[i]!] = Math.max(lastAt[parent[i]!]!, at[i]!);
    }
    return { parent, at, order, childCount, lastAt };
  };
  let replies!: ReturnType<typeof childrenOf>;
  let answers!: ReturnType<typeof childrenOf>;
  await step("placing the posts (threads and times)", async () => {
    replies = childrenOf(REPLIES, DISCUSSIONS, discussionAt);
    answers = childrenOf(ANSWERS, QUESTIONS, questionAt);
  });

  await step(`${TOPICS.length} topics`, () =>
    db
      .insertInto("topic")
      .values(
        TOPICS.map((t, i) => {
          let discussions = 0;
          let replyCount = 0;
          let last = now - span;
          for (let d = 0; d < DISCUSSIONS; d++) {
            if (topicOf[d] !== i) continue;
            discussions++;
            replyCount += replies.childCount[d]!;
            last = Math.max(last, replies.lastAt[d]!);
          }
          return {
            id: t.id,
            section: t.section,
            title: t.title,
            description: `Talk about ${t.title.toLowerCase()}.`,
            created_by: members[0]!.id,
            created_at: iso(now - span - 30 * DAY),
            discussion_count: discussions,
            reply_count: replyCount,
            last_activity_at: iso(last),
          };
        }),
      )
      .execute(),
  );
  await step(`${DISCUSSIONS.toLocaleString("en")} discussions`, () =>
    fill(
      DISCUSSIONS,
      (d) => {
        const title = makeTitle(random, random() < 0.3);
        const { body: text, html } = body();
        return {
          topic_id: TOPICS[topicOf[d]!]!.id,
          author_id: author(),
          title,
          slug: slugify(title, 50),
          body: text,
          body_html: html,
          excerpt: excerptOf(text),
          created_at: iso(discussionAt(d)),
          last_activity_at: iso(replies.lastAt[d]!),
          reply_count: replies.childCount[d]!,
        };
      },
      (trx, rows) => trx.insertInto("discussion").values(rows).execute(),
    ),
  );
  // Discussion d is row d + 1: the table was empty and the rows went in in order, one connection.
  await expectIds("discussion", DISCUSSIONS);
  await step(`${REPLIES.toLocaleString("en")} replies`, () =>
    fill(
      REPLIES,
      (i) => {
        const r = replies.order[i]!;
        const { body: text, html } = body();
        return { discussion_id: replies.parent[r]! + 1, author_id: author(), body: text, body_html: html, created_at: iso(replies.at[r]!) };
      },
      (trx, rows) => trx.insertInto("reply").values(rows).execute(),
    ),
  );
  await step(`${QUESTIONS.toLocaleString("en")} questions and their virtues`, async () => {
    await fill(
      QUESTIONS,
      (q) => {
        const { body: text, html } = body();
        return {
          author_id: author(),
          title: makeTitle(random, true),
          body: text,
          body_html: html,
          excerpt: excerptOf(text),
          created_at: iso(questionAt(q)),
          last_activity_at: iso(answers.lastAt[q]!),
          answer_count: answers.childCount[q]!,
        };
      },
      (trx, rows) => trx.insertInto("question").values(rows).execute(),
    );
    await expectIds("question", QUESTIONS);
    // One or two virtues a question: the search row lists them.
    await fill(
      QUESTIONS,
      (q) => q,
      (trx, ids) =>
        trx
          .insertInto("question_virtue")
          .values(
            ids.flatMap((q) => {
              const first = q % VIRTUE_IDS.length;
              const virtues = q % 3 === 0 ? [first, (first + 1) % VIRTUE_IDS.length] : [first];
              return virtues.map((v) => ({ question_id: q + 1, virtue: VIRTUE_IDS[v]! }));
            }),
          )
          .execute(),
    );
  });
  await step(`${ANSWERS.toLocaleString("en")} answers`, () =>
    fill(
      ANSWERS,
      (i) => {
        const a = answers.order[i]!;
        const { body: text, html } = body();
        return { question_id: answers.parent[a]! + 1, author_id: author(), body: text, body_html: html, created_at: iso(answers.at[a]!) };
      },
      (trx, rows) => trx.insertInto("answer").values(rows).execute(),
    ),
  );
  // What autovacuum does to a PostgreSQL database that has lived a while (statistics, visibility):
  // the rebuild's id-range reads and the write step's lookups should not run on a table it has never seen.
  if (pgEngine) await step("vacuum analyze", () => sql`vacuum analyze`.execute(db));
  console.log(`  built in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return { members, sampleBodies };
}

async function expectIds(table: "discussion" | "question", count: number) {
  const row = await db
    .selectFrom(table)
    .select((eb) => [eb.fn.min("id").as("low"), eb.fn.max("id").as("high"), eb.fn.countAll().as("n")])
    .executeTakeFirstOrThrow();
  if (Number(row.low) !== 1 || Number(row.high) !== count || Number(row.n) !== count) {
    throw new Error(`${table} ids are not 1..${count}: ${JSON.stringify(row)}`);
  }
}

// ------------------------------------------------------------------ the index build
async function buildIndex() {
  console.log("\nthe index build:");
  const t = performance.now();
  // One transaction, as the server's first start runs it: a build stopped halfway leaves no half index.
  const written = await db.transaction().execute((trx) => rebuildSearchIndex(trx));
  const seconds = (performance.now() - t) / 1000;
  console.log(`  rebuildSearchIndex: ${written.toLocaleString("en")} documents in ${seconds.toFixed(1)} s (${(seconds / 60).toFixed(1)} min)`);
  if (pgEngine) {
    // The planner's statistics for the new rows (autovacuum would gather them soon after), and the
    // visibility map, so that autovacuum does not start on the table while the queries are timed.
    const v = performance.now();
    await sql`vacuum analyze search_document`.execute(db);
    console.log(`  vacuum analyze search_document: ${((performance.now() - v) / 1000).toFixed(1)} s`);
  }
  const size = pgEngine
    ? await sql<{ bytes: string }>`select pg_total_relation_size('search_document')::text as bytes`.execute(db)
    : await sql<{ bytes: string }>`select cast(page_count * page_size as text) as bytes from pragma_page_count(), pragma_page_size()`.execute(db);
  console.log(`  ${pgEngine ? "search_document with its indexes" : "the whole database file"}: ${(Number(size.rows[0]!.bytes) / 2 ** 30).toFixed(2)} GiB`);
}

// ------------------------------------------------------------------ the queries
type QueryKind = "one word" | "two words" | "phrase" | "prefix";
const QUERY_KINDS: QueryKind[] = ["one word", "two words", "phrase", "prefix"];
interface Query {
  kind: QueryKind;
  text: string;
}

/**
 * The mix: 40% one word, 30% two words, 15% a two-word phrase as it stands in a body, 15% the first
 * four or five letters of a word and `*`. Words are drawn by their frequency in the posts, less the
 * most frequent 30 (a phrase's too): people search for "deadlift", not for "the".
 */
function makeQueries(count: number, sampleBodies: number[][], seed: number): Query[] {
  // A stream each for the kinds, the words and the phrases: the same mix and the same words whatever
  // POSTS is (only the phrases come from the set's bodies), so runs of other sizes compare.
  const kinds = mulberry32(seed);
  const words = mulberry32(seed + 1);
  const phrases = mulberry32(seed + 2);
  const word = () => vocabulary[drawRank(words, SKIPPED)]!;
  return Array.from({ length: count }, (): Query => {
    const r = kinds();
    if (r < 0.4) return { kind: "one word", text: word() };
    if (r < 0.7) return { kind: "two words", text: `${word()} ${word()}` };
    if (r < 0.85) {
      for (;;) {
        const ranks = sampleBodies[Math.floor(phrases() * sampleBodies.length)]!;
        const at = Math.floor(phrases() * (ranks.length - 1));
        if (ranks[at]! >= SKIPPED && ranks[at + 1]! >= SKIPPED) return { kind: "phrase", text: `"${vocabulary[ranks[at]!]} ${vocabulary[ranks[at + 1]!]}"` };
      }
    }
    const w = word();
    return { kind: "prefix", text: `${w.slice(0, between(words, 4, 5))}*` };
  });
}

const filtersBy = (sort: SearchSort): SearchFilters => ({ kind: null, section: null, virtue: null, author: null, sort, bookmarks: false });

/** Nearest-rank percentile of sorted samples. */
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!;

function report(title: string, samples: Array<{ query: Query; ms: number }>) {
  console.log(`\n${title}`);
  console.log(`  ${"".padEnd(12)} ${"n".padStart(5)} ${"p50".padStart(9)} ${"p95".padStart(9)} ${"p99".padStart(9)} ${"max".padStart(9)}`);
  const line = (label: string, ms: number[]) => {
    const sorted = [...ms].sort((a, b) => a - b);
    if (sorted.length === 0) return { p95: 0, p99: 0 };
    const [p50, p95, p99, max] = [percentile(sorted, 0.5), percentile(sorted, 0.95), percentile(sorted, 0.99), sorted[sorted.length - 1]!];
    const cells = [p50, p95, p99, max].map((v) => `${v.toFixed(1).padStart(6)} ms`).join(" ");
    const verdict = `p95 ${p95 <= GOAL_P95_MS ? "met" : "MISSED"}, p99 ${p99 <= GOAL_P99_MS ? "met" : "MISSED"}`;
    console.log(`  ${label.padEnd(12)} ${String(sorted.length).padStart(5)} ${cells}   ${verdict}`);
    return { p95, p99 };
  };
  const all = line(
    "all",
    samples.map((s) => s.ms),
  );
  for (const kind of QUERY_KINDS) {
    line(
      kind,
      samples.filter((s) => s.query.kind === kind).map((s) => s.ms),
    );
  }
  const slowest = [...samples].sort((a, b) => b.ms - a.ms).slice(0, 5);
  console.log(`  slowest: ${slowest.map((s) => `${s.query.text} (${s.query.kind}) ${s.ms.toFixed(0)} ms`).join("; ")}`);
  console.log(
    `  goals for the whole mix: p95 ${all.p95.toFixed(1)} ms ${all.p95 <= GOAL_P95_MS ? "≤" : ">"} ${GOAL_P95_MS} ms (${all.p95 <= GOAL_P95_MS ? "met" : "MISSED"}), ` +
      `p99 ${all.p99.toFixed(1)} ms ${all.p99 <= GOAL_P99_MS ? "≤" : ">"} ${GOAL_P99_MS} ms (${all.p99 <= GOAL_P99_MS ? "met" : "MISSED"})`,
  );
}

async function measureQueries(built: Built) {
  const timed = async (query: Query, sort: SearchSort, after: ReturnType<typeof decodeSearchCursor> = null) => {
    const t = performance.now();
    const outcome = await searchResults(db, null, query.text, filtersBy(sort), after);
    const ms = performance.now() - t;
    if (outcome.status !== "found") throw new Error(`${query.text}: ${outcome.status}`);
    return { ms, outcome };
  };
  // The warm-up queries are others than the timed ones: what they leave in the caches is the
  // engine's and the code's, not the answers to the queries about to be timed.
  for (const query of makeQueries(WARMUP, built.sampleBodies, 0x5eed0010)) await timed(query, "relevance");
  const queries = makeQueries(RUNS, built.sampleBodies, 0x5eed0020);
  const counts = QUERY_KINDS.map((k) => `${queries.filter((q) => q.kind === k).length} ${k}`).join(", ");
  console.log(
    `\nthe query mix: ${RUNS} queries (${counts}), each ranking its newest ${RANKED_WINDOW} matches, e.g. ${queries
      .slice(0, 6)
      .map((q) => q.text)
      .join(" | ")}`,
  );

  const relevance: Array<{ query: Query; ms: number }> = [];
  let found = 0;
  for (const query of queries) {
    const { ms, outcome } = await timed(query, "relevance");
    if (outcome.status === "found" && outcome.results.length > 0) found++;
    relevance.push({ query, ms });
  }
  report(`searchResults by relevance, first page, ${RUNS} queries one after another (${engine}; ${found} found something):`, relevance);

  const newest: Array<{ query: Query; ms: number }> = [];
  for (const query of queries.slice(0, NEWEST_RUNS)) newest.push({ query, ms: (await timed(query, "newest")).ms });
  report(`searchResults newest first, first page, the mix's first ${NEWEST_RUNS} queries (${engine}):`, newest);

  // The second page of the same queries by relevance: the first page (not timed) gives the cursor.
  const second: Array<{ query: Query; ms: number }> = [];
  for (const query of queries.slice(0, SECOND_PAGE_RUNS)) {
    const first = await searchResults(db, null, query.text, filtersBy("relevance"), null);
    if (first.status !== "found" || !first.next) continue;
    const cursor = decodeSearchCursor(first.next);
    if (!cursor) throw new Error(`${query.text}: the next cursor does not decode`);
    second.push({ query, ms: (await timed(query, "relevance", cursor)).ms });
  }
  report(`searchResults by relevance, second page, the ${second.length} of the mix's first ${SECOND_PAGE_RUNS} queries that have one (${engine}):`, second);
}

// ------------------------------------------------------------------ a post's write time
/** The services the posting pipeline is given in the server, on this benchmark's database. */
function servicesOn(database: Db): AppServices {
  const env = loadEnv({
    DATA_DIR: dataDir,
    DEMO_CONTENT: "off",
    LOG_LEVEL: "silent",
    PORT: "0",
    AUTH_SECRET: "bench-search-secret-that-is-long-enough-0123456789",
    ...(pgEngine ? { DATABASE_URL: databaseUrl.toString() } : {}),
  });
  const logger = pino({ level: "silent" });
  const auth = createAuth({
    db: database,
    engine,
    secret: env.AUTH_SECRET,
    baseURL: env.BASE_URL,
    sendResetPassword: async (to, token) => void (await enqueueMail(database, resetPasswordMail(env.BASE_URL, to, token))),
  });
  return {
    db: database,
    engine,
    auth,
    env,
    logger,
    mailer: createMailer({ outboxDir: path.join(dataDir, "outbox"), logger }),
    media: databaseMediaStore(database),
    live: inProcessLiveBus(),
  };
}

/**
 * A reply's whole write through postReply (limits, insert, index, counts, XP, notices), against the
 * index step alone. The index step is timed on replies already in the set: each one's index row is
 * removed first in the same transaction (not timed), so indexSearch inserts it as it does for a new
 * reply. Its re-indexing as it stands (an edit's upsert) is shown too.
 */
async function measureWrites(built: Built) {
  const services = servicesOn(db);
  const random = mulberry32(0x5eed0005);
  const median = (ms: number[]) =>
    percentile(
      [...ms].sort((a, b) => a - b),
      0.5,
    );
  const mean = (ms: number[]) => ms.reduce((a, b) => a + b, 0) / ms.length;

  // Each reply by another member: no one of them meets the write limit (30 posts in 10 minutes).
  const replyTimes: number[] = [];
  for (let i = 0; i < WRITE_WARMUP + WRITES; i++) {
    const viewer = built.members[i % built.members.length]!;
    const discussionId = between(random, 1, DISCUSSIONS);
    const { body } = makeBody(random);
    const t = performance.now();
    const posted = await postReply(services, viewer, discussionId, { body, submissionKey: randomUUID() });
    const ms = performance.now() - t;
    if (!posted.ok) throw new Error(`postReply: ${JSON.stringify(posted)}`);
    if (i >= WRITE_WARMUP) replyTimes.push(ms);
  }

  const indexTimes = { asNew: [] as number[], again: [] as number[] };
  for (let i = 0; i < WRITE_WARMUP + WRITES; i++) {
    const id = between(random, 1, REPLIES);
    for (const mode of ["asNew", "again"] as const) {
      await db.transaction().execute(async (trx) => {
        if (mode === "asNew") await trx.deleteFrom("search_document").where("kind", "=", "reply").where("ref_id", "=", id).execute();
        const t = performance.now();
        await indexSearch(trx, [{ kind: "reply", id }]);
        if (i >= WRITE_WARMUP) indexTimes[mode].push(performance.now() - t);
      });
    }
  }

  const reply = { median: median(replyTimes), mean: mean(replyTimes) };
  const index = { median: median(indexTimes.asNew), mean: mean(indexTimes.asNew) };
  const again = { median: median(indexTimes.again), mean: mean(indexTimes.again) };
  const growth = (whole: number, part: number) => (part / (whole - part)) * 100;
  console.log(`\na reply's write time (${engine}), ${WRITES} of each after ${WRITE_WARMUP} warm-up:`);
  console.log(`  postReply, whole write                     median ${reply.median.toFixed(2).padStart(7)} ms   mean ${reply.mean.toFixed(2).padStart(7)} ms`);
  console.log(`  indexSearch of a reply, as a new one       median ${index.median.toFixed(2).padStart(7)} ms   mean ${index.mean.toFixed(2).padStart(7)} ms`);
  console.log(`  indexSearch of a reply again (an edit's)   median ${again.median.toFixed(2).padStart(7)} ms   mean ${again.mean.toFixed(2).padStart(7)} ms`);
  const byMedian = growth(reply.median, index.median);
  const byMean = growth(reply.mean, index.mean);
  const met = (value: number) => (value <= GOAL_WRITE_GROWTH ? "met" : "MISSED");
  console.log(
    `  the index step against the write without it: ${byMedian.toFixed(1)}% by medians, ${byMean.toFixed(1)}% by means ` +
      `(goal ≤ ${GOAL_WRITE_GROWTH}%: ${met(byMedian)} by medians, ${met(byMean)} by means)`,
  );
}

// ------------------------------------------------------------------ the sitemap
/**
 * The sitemap at this size (issue 30: "fast at a million posts"): the index, then whole parts of
 * 50,000 addresses (the first, middle and last discussions part, the questions and members parts),
 * each read SITEMAP_RUNS times; the median and slowest of each.
 */
async function measureSitemap() {
  const t = performance.now();
  const parts = await sitemapParts(db);
  const indexMs = performance.now() - t;
  const discussionParts = parts.filter((p) => p.startsWith("discussions-"));
  const chosen = [
    ...new Set([discussionParts[0], discussionParts[Math.floor(discussionParts.length / 2)], discussionParts.at(-1), "questions-1", "members-1"]),
  ].filter((p): p is string => p !== undefined && parts.includes(p));
  console.log(`
the sitemap (${engine}): ${parts.length} parts, its index read in ${indexMs.toFixed(1)} ms`);
  for (const name of chosen) {
    const times: number[] = [];
    let addresses = 0;
    for (let i = 0; i < SITEMAP_RUNS; i++) {
      const started = performance.now();
      addresses = (await sitemapPart(db, name))?.length ?? 0;
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    console.log(
      `  ${name.padEnd(18)} ${addresses.toLocaleString("en").padStart(7)} addresses   median ${percentile(times, 0.5).toFixed(0).padStart(5)} ms   max ${times.at(-1)!.toFixed(0).padStart(5)} ms`,
    );
  }
}

// ------------------------------------------------------------------ the run
// Last in the file: the steps read the vocabulary and the constants above, which a top-level await
// placed before their declarations would meet uninitialised.
/** A kept database's set, as its first run built it (the build is seeded, so it is the same set). */
async function keptSet(): Promise<Built | null> {
  if (keptName === undefined) return null;
  const { rows } = await sql<{ built: string }>`select built from bench_search_set where posts = ${POSTS}`.execute(db).catch(() => ({ rows: [] }));
  return rows[0] ? (JSON.parse(rows[0].built) as Built) : null;
}

async function keepSet(built: Built) {
  if (keptName === undefined) return;
  await sql`create table if not exists bench_search_set (posts integer primary key, built text not null)`.execute(db);
  await sql`insert into bench_search_set (posts, built) values (${POSTS}, ${JSON.stringify(built)})`.execute(db);
}

if (pgEngine) {
  const exists = keptName !== undefined && (await admin(`select 1 from pg_database where datname = '${pgName}'`)).rowCount === 1;
  if (!exists) await admin(`create database "${pgName}"`);
}
// A small pool, as one server process has: searchResults looks up posts and members at once.
const db: Db = pgEngine
  ? createDatabase({ engine, url: databaseUrl.toString(), poolSize: 4, applicationName: "ipos-bench-search" })
  : createDatabase({ engine, sqlitePath: path.join(dataDir, "site.db") });
try {
  console.log(`bench:search on ${engine}: ${POSTS.toLocaleString("en")} posts, ${RUNS} timed queries (Node ${process.version})`);
  await migrateToLatest(db);
  const kept = await keptSet();
  const built = kept ?? (await build());
  const indexed = kept !== null && process.env.REINDEX !== "1" && (await db.selectFrom("search_document").select("id").limit(1).execute()).length > 0;
  if (kept) console.log(`the scale set kept in ${pgName}${indexed ? ", with its index" : ""}`);
  if (!indexed) await buildIndex();
  if (!kept) await keepSet(built);
  await measureQueries(built);
  await measureWrites(built);
  await measureSitemap();
} finally {
  await db.destroy().catch(() => {});
  await cleanUp();
}
process.exit(0);
