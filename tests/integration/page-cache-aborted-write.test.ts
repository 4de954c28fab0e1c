import { sql } from "kysely";
import pg from "pg";
import { describe, expect, it, vi } from "vitest";
import { tag } from "~/.server/cache/page-tags";
import type { Db } from "~/.server/db/connect";
import { discussion, event } from "../factories";
import { ENGINE, PG_URL } from "./test-services";
import { readable, siteOverHttp } from "./site-server";
import { joinOverHttp } from "./site-join";

/*
 * A write whose client goes away before it commits (issue 25, item 3). React Router stops waiting
 * for the action when the socket closes, but the action goes on and commits later; a page read in
 * between shows the rows from before the write. Its bump must come after the commit, or that page
 * is kept with the old content until the TTL (60 s).
 *
 * The write is held before it commits by the real database: on PostgreSQL a second connection holds
 * the lock on the row it writes, so the action waits inside its transaction while pages are still
 * read on other connections. SQLite has one connection per site, which every query waits its turn
 * for: a transaction of the test holds it, as another request's slow transaction would, and the
 * page's first query (the event or the discussion, as it was) then comes before the write's
 * transaction.
 */

vi.setConfig({ testTimeout: 60_000 });

const web = siteOverHttp({ demo: false });
const db = () => web.site.services.db;
const CANCELLED = "This event was cancelled.";

let n = 0;
/** A member signed in through the site, given a role (admins cancel any event, moderators hide). */
async function joinAs(role: "admin" | "moderator") {
  n += 1;
  const { cookie, id } = await joinOverHttp(web, `Ada Aborted ${n}`);
  await db().updateTable("member").set({ role }).where("id", "=", id).execute();
  return cookie
    .split("; ")
    .filter((pair) => !pair.startsWith("ipos_flash="))
    .join("; ");
}

/**
 * The same page under another address, so that the read while the write waits renders it: the page
 * kept before may stay kept then (the write has not committed, and may not have named it yet), and a
 * read of it would be answered from memory.
 */
const rendered = (page: string) => `${page}?read=between`;

/** A visitor's page, kept before the write as a busy page would be. */
async function kept(page: string) {
  await (await web.http.get(page)).arrayBuffer();
  const again = await web.http.get(page);
  expect(again.headers.get("x-page-cache"), `${page} asked again`).toBe("hit");
  await again.arrayBuffer();
}

/** How the write is held before it commits, on this engine. */
interface Hold {
  /** Resolves once the write is inside its action, waiting for the database. */
  writeWaits(): Promise<void>;
  /** Reads while the write waits (done before it goes on, or queued ahead of it), then lets it commit. */
  readThenRelease(read: () => Promise<Response>): Promise<Response>;
  /** Lets the write go on and commit. */
  release(): Promise<void>;
}

/** PostgreSQL: a second connection locks the row the write changes; the action waits on it in its transaction. */
async function rowLock(table: "event" | "discussion", id: number): Promise<Hold> {
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db());
  const schema = rows[0]!.schema;
  const locker = new pg.Client({ connectionString: PG_URL, options: `-c search_path=${schema}` });
  await locker.connect();
  await locker.query("begin");
  await locker.query(`select id from ${table} where id = $1 for update`, [id]);
  let locked = true;
  const hold: Hold = {
    async writeWaits() {
      // The site's own connections carry the schema as their application name.
      await vi.waitFor(
        async () => {
          const waiting = await locker.query("select 1 from pg_stat_activity where application_name = $1 and wait_event_type = 'Lock'", [schema]);
          expect(waiting.rowCount).toBe(1);
        },
        { timeout: 10_000, interval: 20 },
      );
    },
    async readThenRelease(read) {
      // Other connections read past the lock: the page is whole before the write goes on.
      const res = await read();
      const body = await res.arrayBuffer();
      await hold.release();
      return new Response(body, { status: res.status, headers: res.headers });
    },
    async release() {
      if (!locked) return;
      locked = false;
      await locker.query("commit");
      await locker.end();
    },
  };
  return hold;
}

/** A transaction on the site's database that holds its one SQLite connection until let go. */
function holdConnection(database: Db) {
  let letGo!: () => void;
  const gate = new Promise<void>((resolve) => (letGo = resolve));
  const done = database.transaction().execute(() => gate);
  return async () => {
    letGo();
    await done;
  };
}

/**
 * SQLite: the site's connection is held while the write asks for it. Each ask (a query or a
 * transaction) is counted as it is made, which is how the test knows where the requests are; the
 * count changes nothing of what they do.
 */
async function connectionHeld(): Promise<Hold> {
  const executor = db().getExecutor();
  const ask = executor.provideConnection.bind(executor);
  let asks = 0;
  executor.provideConnection = ((consumer, options) => {
    asks += 1;
    return ask(consumer, options);
  }) as typeof executor.provideConnection;
  const asked = (count: number) => vi.waitFor(() => expect(asks).toBeGreaterThanOrEqual(count), { timeout: 10_000, interval: 5 });
  let letGo = holdConnection(db());
  let expected = asks;
  const hold: Hold = {
    async writeWaits() {
      // First the session's query waits behind the hold; the write's next query, its action's first,
      // then waits behind a second hold taken at once. (Were the action not begun, the closed socket
      // would stop it, and the test would fail waiting for the commit.)
      await asked(expected + 1);
      const first = letGo;
      letGo = holdConnection(db());
      void first();
      expected = asks;
      await asked(expected + 1);
      expected = asks;
    },
    async readThenRelease(read) {
      // The page's first query waits behind the write's, and comes before the write's transaction.
      const reading = read();
      await asked(expected + 1);
      await hold.release();
      return reading;
    },
    async release() {
      delete (executor as Partial<typeof executor>).provideConnection;
      await letGo();
    },
  };
  return hold;
}

/**
 * Posts the write, holds it before it commits, closes its socket (the server sees the close), then
 * reads `page` (kept before) as a visitor under another address while the write still waits; lets
 * the write go on and returns that read.
 */
async function readWhileAbortedWriteWaits(
  write: { path: string; form: Record<string, string>; cookie: string; row: ["event" | "discussion", number] },
  page: string,
) {
  const hold = ENGINE === "postgres" ? await rowLock(...write.row) : await connectionHeld();
  const client = new AbortController();
  const posting = fetch(web.http.base + write.path, {
    method: "POST",
    redirect: "manual",
    signal: client.signal,
    headers: { origin: web.http.base, "content-type": "application/x-www-form-urlencoded", cookie: write.cookie },
    body: new URLSearchParams(write.form).toString(),
  }).catch((error: unknown) => error);
  let between: Response;
  try {
    await hold.writeWaits();

    const cache = web.http.front.pageCache!;
    // A page of something the write does not touch, stored as the site stores any kept page.
    const unrelated = "/unrelated-to-the-write";
    cache.set({
      key: unrelated,
      status: 200,
      headers: { "content-type": "text/html" },
      body: Buffer.from("<p>kept</p>"),
      reads: [tag.topic("unrelated")],
      startSeq: cache.sequence(),
    });
    const before = cache.sequence();
    client.abort();
    expect(await posting).toBeInstanceOf(Error);
    // The server has seen the socket close: it bumps what the write named so far (at least the
    // member's own tag, ADR 0040), never the whole site.
    await vi.waitFor(() => expect(cache.sequence()).toBeGreaterThan(before), { timeout: 5_000, interval: 5 });
    expect(cache.get(unrelated), "a page the write does not touch, at the close").toBeDefined();

    between = await hold.readThenRelease(() => web.http.get(rendered(page)));
  } finally {
    // Also after a failed step: the database must not stay held for the rest of the file.
    await hold.release();
  }
  expect(between.headers.get("x-page-cache"), "the read while the write waited").toBe("miss");
  return { status: between.status, html: await readable(between) };
}

/** Asks again for two seconds: the write must show within a moment of its commit, not after the TTL. */
function shownSoon<T>(read: () => Promise<T>) {
  return expect.poll(read, { timeout: 2_000, interval: 50 });
}

describe(`a write whose client went away before it committed, on ${ENGINE}`, () => {
  it("an event cancelled: the page read before the commit is not kept, the next read shows it cancelled", async () => {
    const cookie = await joinAs("admin");
    const { id } = await event(web.site.services, { title: "Evening sit by the river" });
    const page = `/events/${id}`;
    await kept(page);

    const between = await readWhileAbortedWriteWaits({ path: `${page}/edit`, form: { intent: "cancel" }, cookie, row: ["event", id] }, page);
    // Rendered from the rows before the write.
    expect(between.html).toContain("Evening sit by the river");
    expect(between.html).not.toContain(CANCELLED);

    // The write commits after all, and the page says so at once, not a minute later.
    await vi.waitFor(
      async () => expect((await db().selectFrom("event").select("cancelled_at").where("id", "=", id).executeTakeFirstOrThrow()).cancelled_at).not.toBeNull(),
      { timeout: 10_000, interval: 20 },
    );
    for (const address of [page, rendered(page)]) {
      await shownSoon(async () => {
        const res = await web.http.get(address);
        return (await readable(res)).includes(CANCELLED) ? "cancelled" : `shown as before (${res.headers.get("x-page-cache")})`;
      }).toBe("cancelled");
    }
  });

  it("a discussion hidden by a moderator: the page read before the commit is not kept, the next read is not found", async () => {
    const cookie = await joinAs("moderator");
    const started = await discussion(web.site.services, { title: "Cold showers at dawn" });
    const page = `/${started.section}/${started.topicId}/${started.id}-${started.slug}`;
    await kept(page);

    const between = await readWhileAbortedWriteWaits(
      { path: page, form: { intent: "moderate", kind: "discussion", action: "hide" }, cookie, row: ["discussion", started.id] },
      page,
    );
    expect(between.status).toBe(200);
    expect(between.html).toContain("Cold showers at dawn");

    await vi.waitFor(
      async () =>
        expect((await db().selectFrom("discussion").select("hidden_at").where("id", "=", started.id).executeTakeFirstOrThrow()).hidden_at).not.toBeNull(),
      { timeout: 10_000, interval: 20 },
    );
    for (const address of [page, rendered(page)]) {
      await shownSoon(async () => {
        const res = await web.http.get(address);
        await res.arrayBuffer();
        return res.status === 404 ? "not found" : `shown as before (${res.status}, ${res.headers.get("x-page-cache")})`;
      }).toBe("not found");
    }
  });
});
