// Issue 13: every keyset page is one index range on both engines, at scale. A topic with 100,000
// discussions, a discussion with 200,000 replies, 50,000 questions and 50,000 creations are made in
// one statement each (generate_series on PostgreSQL, a recursive CTE on SQLite), then the queries
// the repositories really send are captured and explained for the first, a middle (after and
// before a cursor) and the last page: SQLite must SEARCH the expected index (never SCAN the table
// or sort in a temporary B-tree); PostgreSQL must read the expected index, sort no more than the
// page and, run with EXPLAIN ANALYZE, touch no more rows of the big table than the page needs
// (ADR 0028).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CompiledQuery, sql, type KyselyPlugin, type QueryId, type RootOperationNode } from "kysely";
import type { Db } from "~/.server/db/connect";
import { discussionPage, replyPage, DISCUSSIONS_PER_PAGE, REPLIES_PER_PAGE } from "~/.server/domain/forum/forum-repository";
import { questionPageRows } from "~/.server/domain/council/council-repository";
import { creationPageRows } from "~/.server/domain/forge/forge-repository";
import type { ActivityCursor, PageRequest } from "~/.server/pagination";
import { toIso } from "~/lib/dates";
import { member, topic } from "../factories";
import { createTestSite, ENGINE, type TestSite } from "./test-services";

const DISCUSSIONS = 100_000;
const REPLIES = 200_000;
const QUESTIONS = 50_000;
const CREATIONS = 50_000;
const PAGE = 20;
const T0 = "2026-01-01T00:00:00Z";
const pg = ENGINE === "postgres";

let site: TestSite;
let db: Db;
let topicId: string;
let discussionId: number;

/** `count` rows made by one INSERT … SELECT over 1..count; `g` is the row's number in `select`. */
async function bulk(table: string, columns: string, select: string, count: number) {
  const series = pg
    ? `from generate_series(1, ${count}) as s(g)`
    : `from (with recursive s(g) as (select 1 union all select g + 1 from s where g < ${count}) select g from s)`;
  await sql.raw(`insert into ${table} (${columns}) select ${select} ${series}`).execute(db);
}

/** A timestamp `seconds` after T0, in the column's own type; `(g / 2)` makes pairs that tie. */
const at = (seconds: string) =>
  pg ? `timestamptz '${T0}' + (${seconds}) * interval '1 second'` : `strftime('%Y-%m-%dT%H:%M:%fZ', '${T0}', '+' || (${seconds}) || ' seconds')`;

/** Records every query a repository sends through this executor, compiled as the engine gets it. */
class Capture implements KyselyPlugin {
  sent: { node: RootOperationNode; queryId: QueryId }[] = [];
  transformQuery(args: { node: RootOperationNode; queryId: QueryId }) {
    this.sent.push(args);
    return args.node;
  }
  async transformResult(args: { result: any }) {
    return args.result;
  }
}

async function captured<T>(run: (executor: Db) => Promise<T>) {
  const capture = new Capture();
  const result = await run(db.withPlugin(capture));
  // A subquery passes through the plugin too, before the query that holds it: the last is the one sent.
  expect(capture.sent.length).toBeGreaterThan(0);
  const { node, queryId } = capture.sent[capture.sent.length - 1];
  return { result, query: db.getExecutor().compileQuery(node, queryId) };
}

interface PgPlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  "Index Cond"?: string;
  "Actual Rows"?: number;
  "Rows Removed by Filter"?: number;
  Plans?: PgPlanNode[];
}
const flatten = (node: PgPlanNode): PgPlanNode[] => [node, ...(node.Plans ?? []).flatMap(flatten)];

/**
 * The query's plan must read `table` through `index` and nothing else: `cursor` says the page
 * starts at a row comparison, which must be part of the index condition, not a filter.
 */
async function expectIndexRange(query: CompiledQuery, table: string, index: string, { cursor, limit }: { cursor: boolean; limit: number }) {
  if (pg) {
    const { rows } = await db.executeQuery<{ "QUERY PLAN": { Plan: PgPlanNode }[] }>(
      CompiledQuery.raw(`explain (analyze, buffers, format json) ${query.sql}`, [...query.parameters]),
    );
    const nodes = flatten(rows[0]["QUERY PLAN"][0].Plan);
    const described = JSON.stringify(
      nodes.map((n) => [n["Node Type"], n["Relation Name"], n["Index Name"], n["Index Cond"], n["Actual Rows"], n["Rows Removed by Filter"]]),
    );
    // A sort may only put the page's own rows back in order (after a join), never choose them.
    const sorts = nodes.filter((n) => n["Node Type"] === "Sort" || n["Node Type"] === "Incremental Sort");
    expect(
      sorts.filter((n) => n.Plans![0]["Actual Rows"]! > limit + 1),
      described,
    ).toEqual([]);
    const reads = nodes.filter((n) => n["Relation Name"] === table);
    expect(reads, described).toHaveLength(1);
    const [scan] = reads;
    expect(["Index Scan", "Index Only Scan"], described).toContain(scan["Node Type"]);
    expect(scan["Index Name"], described).toBe(index);
    if (cursor) expect(scan["Index Cond"], described).toMatch(/ROW\(/);
    // Rows read from the big table: the page and the one that says there is more, and nothing else.
    expect(scan["Actual Rows"]! + (scan["Rows Removed by Filter"] ?? 0), described).toBeLessThanOrEqual(limit + 1);
  } else {
    const rows = await db.executeQuery<{ detail: string }>(CompiledQuery.raw(`explain query plan ${query.sql}`, [...query.parameters]));
    const details = rows.rows.map((r) => r.detail);
    const described = details.join(" | ");
    expect(
      details.filter((d) => d.includes("TEMP B-TREE")),
      described,
    ).toEqual([]);
    const reads = details.filter((d) => d.startsWith(`SEARCH ${table} `) || d.startsWith(`SCAN ${table}`));
    expect(reads, described).toHaveLength(1);
    // A page with a cursor, or of a topic or discussion, SEARCHes a range of the index; a first or
    // last page of a whole list may walk the index from one end (SCAN … USING INDEX stops at LIMIT).
    // SQLite prints the range of a row comparison whose last column is the rowid (`id`) as its
    // first column only (`created_at<?`): it starts at the cursor's instant and skips the rows
    // that tie with it, which the tie-breaking pages below prove right.
    const scanOk = new RegExp(`^SCAN ${table} USING (COVERING )?INDEX ${index}$`);
    const searchOk = new RegExp(`^SEARCH ${table} USING (COVERING )?INDEX ${index} \\(`);
    expect(scanOk.test(reads[0]) || searchOk.test(reads[0]), described).toBe(true);
    if (cursor) expect(reads[0], described).toMatch(/(\(\w+,id\)|\w+_at|\bid)[<>]\(?\?/);
  }
}

beforeAll(async () => {
  const started = Date.now();
  site = await createTestSite();
  db = site.services.db;
  const author = await member(db, { xp: 200 });
  const made = await topic(site.services, { creator: author });
  topicId = made.id;
  const other = await topic(site.services, { creator: author });
  // Twenty authors take turns, so that joining member is a real join the planner must weigh.
  const authors = [author, ...(await Promise.all(Array.from({ length: 19 }, () => member(db))))];
  const a = `case g % ${authors.length} ${authors.map((m, i) => `when ${i} then '${m.id}'`).join(" ")} end`;
  const discussionColumns = "topic_id, author_id, title, slug, body, body_html, excerpt, created_at, last_activity_at";
  await bulk(
    "discussion",
    discussionColumns,
    `'${topicId}', ${a}, 'Discussion ' || g, 'discussion-' || g, 'Body', '<p>Body</p>', 'Body', ${at("g / 2")}, ${at("g / 2")}`,
    DISCUSSIONS,
  );
  // Another topic's discussions interleave in time: the topic's range must skip them by index.
  await bulk(
    "discussion",
    discussionColumns,
    `'${other.id}', ${a}, 'Elsewhere ' || g, 'elsewhere-' || g, 'Body', '<p>Body</p>', 'Body', ${at("g * 97")}, ${at("g * 97")}`,
    1_000,
  );
  const big = await db.selectFrom("discussion").select("id").where("topic_id", "=", topicId).orderBy("id").limit(1).executeTakeFirstOrThrow();
  discussionId = big.id;
  // The big discussion's replies come in two runs with another discussion's between them (and after
  // them), as replies to several discussions interleave in time: reading by id alone would not do.
  const replyColumns = "discussion_id, author_id, body, body_html, created_at";
  await bulk("reply", replyColumns, `${discussionId}, ${a}, 'Reply ' || g, '<p>Reply</p>', ${at("g")}`, REPLIES / 2);
  await bulk("reply", replyColumns, `${discussionId + 1}, ${a}, 'Reply ' || g, '<p>Reply</p>', ${at("g")}`, 5_000);
  await bulk("reply", replyColumns, `${discussionId}, ${a}, 'Reply ' || g, '<p>Reply</p>', ${at("g")}`, REPLIES / 2);
  await bulk("reply", replyColumns, `${discussionId + 2}, ${a}, 'Reply ' || g, '<p>Reply</p>', ${at("g")}`, 5_000);
  await bulk(
    "question",
    "author_id, title, body, body_html, excerpt, answer_count, created_at, last_activity_at",
    `${a}, 'Question ' || g, 'Body', '<p>Body</p>', 'Body', g % 3, ${at("g / 2")}, ${at("g / 2")}`,
    QUESTIONS,
  );
  await bulk(
    "creation",
    "author_id, title, description, type, body, body_html, created_at",
    `${a}, 'Creation ' || g, 'About it', case g % 4 when 0 then 'writing' when 1 then 'art' when 2 then 'music' else 'projects' end, 'Body', '<p>Body</p>', ${at("g / 2")}`,
    CREATIONS,
  );
  // What autovacuum would have done by the time such a forum exists; SQLite's plans need no statistics.
  if (pg) await sql`analyze`.execute(db);
  console.log(`keyset-plans on ${ENGINE}: data made in ${Date.now() - started} ms`);
}, 120_000);

afterAll(async () => {
  await site?.destroy();
});

/** The (at, id) of the row at `offset` in the list's own order, from OFFSET: only the test may count. */
async function cursorAt(table: "discussion" | "question" | "creation", column: "last_activity_at" | "created_at", offset: number, where: (q: any) => any) {
  const row = await where(db.selectFrom(table).select([`${column} as at`, "id"]))
    .orderBy(column, "desc")
    .orderBy("id", "desc")
    .limit(1)
    .offset(offset)
    .executeTakeFirstOrThrow();
  return { at: toIso(row.at), id: Number(row.id) };
}

const requests = (middle: ActivityCursor): [string, PageRequest<ActivityCursor>][] => [
  ["first", { kind: "first" }],
  ["after a middle cursor", { kind: "after", cursor: middle }],
  ["before a middle cursor", { kind: "before", cursor: middle }],
  ["last", { kind: "last" }],
];

describe(`keyset pages at scale on ${ENGINE}`, () => {
  it("a topic's discussions: one range of discussion_topic_activity_idx, the right rows after ties", async () => {
    const middle = await cursorAt("discussion", "last_activity_at", DISCUSSIONS / 2, (q) => q.where("topic_id", "=", topicId));
    for (const [, request] of requests(middle)) {
      const { result, query } = await captured((x) => discussionPage(x, topicId, request, { limit: PAGE }));
      expect(result.rows).toHaveLength(PAGE);
      await expectIndexRange(query, "discussion", "discussion_topic_activity_idx", {
        cursor: request.kind === "after" || request.kind === "before",
        limit: PAGE,
      });
    }
    // The rows after the cursor are exactly the next ones in (last_activity_at desc, id desc) order.
    const after = await discussionPage(db, topicId, { kind: "after", cursor: middle }, { limit: PAGE });
    const expected = await db
      .selectFrom("discussion")
      .select("id")
      .where("topic_id", "=", topicId)
      .orderBy("last_activity_at", "desc")
      .orderBy("id", "desc")
      .offset(DISCUSSIONS / 2 + 1)
      .limit(PAGE)
      .execute();
    expect(after.rows.map((r) => r.id)).toEqual(expected.map((r) => r.id));
    expect(DISCUSSIONS_PER_PAGE).toBe(PAGE);
  });

  it("a discussion's replies: one range of reply_discussion_idx", async () => {
    const middle = (
      await db
        .selectFrom("reply")
        .select("id")
        .where("discussion_id", "=", discussionId)
        .orderBy("id")
        .limit(1)
        .offset(REPLIES / 2)
        .executeTakeFirstOrThrow()
    ).id;
    const pages: PageRequest<number>[] = [{ kind: "first" }, { kind: "after", cursor: middle }, { kind: "before", cursor: middle }, { kind: "last" }];
    for (const request of pages) {
      const { result, query } = await captured((x) => replyPage(x, discussionId, request));
      expect(result.rows).toHaveLength(REPLIES_PER_PAGE);
      await expectIndexRange(query, "reply", "reply_discussion_idx", {
        cursor: request.kind === "after" || request.kind === "before",
        limit: REPLIES_PER_PAGE,
      });
    }
  });

  it("the Council's questions: one range of question_created_idx", async () => {
    const middle = await cursorAt("question", "created_at", QUESTIONS / 2, (q) => q);
    for (const [, request] of requests(middle)) {
      const { result, query } = await captured((x) => questionPageRows(x, {}, request, PAGE));
      expect(result.rows).toHaveLength(PAGE);
      await expectIndexRange(query, "question", "question_created_idx", { cursor: request.kind === "after" || request.kind === "before", limit: PAGE });
    }
  });

  it("the Forge, all and by category: one range of creation_created_idx or creation_type_created_idx", async () => {
    const all = await cursorAt("creation", "created_at", CREATIONS / 2, (q) => q);
    for (const [, request] of requests(all)) {
      const { result, query } = await captured((x) => creationPageRows(x, undefined, request, PAGE));
      expect(result.rows).toHaveLength(PAGE);
      await expectIndexRange(query, "creation", "creation_created_idx", { cursor: request.kind === "after" || request.kind === "before", limit: PAGE });
    }
    const music = await cursorAt("creation", "created_at", CREATIONS / 8, (q) => q.where("type", "=", "music"));
    for (const [, request] of requests(music)) {
      const { result, query } = await captured((x) => creationPageRows(x, "music", request, PAGE));
      expect(result.rows).toHaveLength(PAGE);
      if (pg) {
        // PostgreSQL drops the constant `type` from the ORDER BY and, a category being a quarter of
        // the Forge here, prefers creation_created_idx and skips the other three: still one range
        // with no sort, reading at most a page per category (noted in ADR 0028).
        await expectIndexRange(query, "creation", "creation_created_idx", {
          cursor: request.kind === "after" || request.kind === "before",
          limit: 4 * (PAGE + 1),
        });
      } else {
        await expectIndexRange(query, "creation", "creation_type_created_idx", { cursor: request.kind === "after" || request.kind === "before", limit: PAGE });
      }
    }
  });
});
