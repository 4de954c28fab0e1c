import { describe, expect, it } from "vitest";
import { postReply } from "~/.server/domain/forum/forum-service";
import { discussion, member } from "../factories";
import { joinedCookie, postFields } from "./site-join";
import { siteOverHttp } from "./site-server";
import { ENGINE } from "./test-services";

const web = siteOverHttp({ demo: false });

/**
 * The statements sent while `fn` runs, and how many of them were sent with none of the others in
 * flight: the round trips a request waits for one after another. Under load each costs a turn of a
 * busy event loop (docs/performance.md, 6 Dec), however short the statement.
 */
async function roundTripsDuring(fn: () => Promise<unknown>) {
  let inFlight = 0;
  let inSequence = 0;
  const sql: string[] = [];
  const stop = web.site.services.queries!.observe((query) => {
    if (inFlight === 0) inSequence++;
    inFlight++;
    sql.push(query.sql);
    return () => void inFlight--;
  });
  try {
    await fn();
  } finally {
    stop();
  }
  return { sql, inSequence };
}

describe(`a signed-in page view's queries on ${ENGINE}`, () => {
  it("a 50-reply discussion: session, rank-up check and page in a handful of statements, none per reply or author", async () => {
    const cookie = await joinedCookie(web, "Query Counter", "10.88.0.1");
    const d = await discussion(web.site.services);
    for (let i = 0; i < 50; i++) {
      const replier = await member(web.site.services.db);
      const posted = await postReply(web.site.services, replier, d.id, { body: `Reply **${i}**`, submissionKey: crypto.randomUUID() });
      if (!posted.ok) throw new Error("reply");
    }
    const path = `/${d.section}/${d.topicId}/${d.id}-${d.slug}`;
    // The first view records the rank first seen (ADR 0022); the ones after are the steady state.
    expect((await web.http.get(path, { cookie })).status).toBe(200);
    let status = 0;
    const { sql: statements, inSequence } = await roundTripsDuring(async () => {
      const res = await web.http.get(path, { cookie });
      status = res.status;
      expect(await res.text()).toContain("Reply <strong>49</strong>");
    });
    expect(status).toBe(200);
    console.info(
      `signed-in discussion GET on ${ENGINE}: ${statements.length} statements, ${inSequence} round trips in sequence\n${statements.map((s) => `  ${s.slice(0, 160)}`).join("\n")}`,
    );
    // The session; the member's watch and read marker; the discussion; its replies; their bookmarks
    // (issue 30); related discussions from the index and their places; the reaction counts, the
    // member's own reactions and the blocks between them and the authors (issue 31). The picture's
    // facts come from the rows read already. A fixed number, whatever the replies: no statement runs
    // twice, as one per reply or author would.
    // PostgreSQL asks the planner how many rows the related posts' search matches (ADR 0063), once a
    // minute for the same words: the first view asked it, this one does not (issue 29).
    expect(statements.length).toBeLessThanOrEqual(9);
    expect(new Set(statements).size).toBe(statements.length);
    expect(statements.filter((s) => s.startsWith("explain"))).toEqual([]);
    // On PostgreSQL the reads that need only the discussion and its replies go out at once: the
    // session, the reader, the discussion with its replies, then the rest together; the related
    // posts' places wait for their search, so at worst one more (ADR 0077).
    // SQLite answers each statement as it is sent, so there every one is in sequence.
    if (ENGINE === "postgres") expect(inSequence).toBeLessThanOrEqual(5);
  }, 90_000); // fifty members and replies are set up through the services first
});

describe(`a reply's statements on ${ENGINE}`, () => {
  it("reads the discussion once before its transaction, takes the member's write lock once and counts the limit with its pruning", async () => {
    const cookie = await joinedCookie(web, "Reply Counter", "10.88.0.2");
    const d = await discussion(web.site.services);
    const path = `/${d.section}/${d.topicId}/${d.id}-${d.slug}`;
    const page = await (await web.http.get(path, { cookie })).text();
    const key = /name="submissionKey" value="([^"]+)"/.exec(page)?.[1];
    expect(key).toBeDefined();
    // Every statement, the transaction's included (the services' observers see each connection's).
    const statements: string[] = [];
    const stop = web.site.services.queries!.observe((query) => void statements.push(query.sql));
    let res: Response;
    try {
      res = await postFields(
        web,
        path,
        [
          ["intent", "reply"],
          ["body", "Counted, *once*."],
          ["submissionKey", key!],
        ],
        cookie,
      );
    } finally {
      stop();
    }
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toMatch(/\?page=last#reply-\d+$/);
    console.info(`reply POST on ${ENGINE}: ${statements.length} statements\n${statements.map((s) => `  ${s.slice(0, 120)}`).join("\n")}`);
    const begin = statements.findIndex((s) => /^begin/i.test(s));
    const discussionRows = statements.slice(0, begin).filter((s) => s.includes('"discussion"."body_html"') && s.includes('where "discussion"."id" ='));
    expect(discussionRows).toHaveLength(1);
    // The new member's latest posts of every kind (the spam signals) in one statement, and what
    // silences the starter's notice (a mute, a block, a muted subject, a kind turned off) in one.
    expect(statements.filter((s) => s.includes('"creation_comment"'))).toHaveLength(1);
    expect(statements.filter((s) => s.includes('"member_mute"') || s.includes('"notification_setting"'))).toHaveLength(1);
    if (ENGINE === "postgres") {
      expect(statements.filter((s) => s.includes("pg_advisory_xact_lock"))).toHaveLength(1);
      expect(statements.filter((s) => /^delete from "rate_limit_hit"/.test(s))).toEqual([]);
      expect(statements.filter((s) => s.startsWith('with "pruned" as (delete from "rate_limit_hit"'))).toHaveLength(1);
    }
  });
});
