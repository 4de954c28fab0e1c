import type { AddressInfo } from "node:net";
import { createServer, type Server } from "node:http";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { changedByRead, currentPageTags, readsFrom, tag, wrote } from "~/.server/cache/page-tags";
import type { CachePolicy } from "~/.server/cache/route-policies";
import { insertDemoContent } from "~/.server/db/demo-content";
import { CacheAudit, PageCache, pageCacheFront, pageCapture, pageTagsMiddleware } from "../../server/page-cache";
import { createTestSite, ENGINE, type TestSite } from "./test-services";

/**
 * The page-cache audit (ADR 0051) on a real database: its SQL seen through the services' query
 * observers, transactions included, and each rule failing on a deliberately broken handler built
 * here, beside the correct version that passes. (Every HTTP test file also runs the whole site with
 * the audit on: startSite fails on any violation.)
 */
describe(`the page-cache audit on ${ENGINE}`, () => {
  let site: TestSite;
  let server: Server;
  let base: string;
  const audit = new CacheAudit();
  const cache = new PageCache({ ttlMs: 60_000, maxBytes: 1 << 20 });
  let discussion: { id: number; author_id: string };
  let question: number;

  beforeAll(async () => {
    site = await createTestSite();
    await insertDemoContent(site.services.db);
    site.services.queries!.observe(audit.observer);
    const db = site.services.db;
    discussion = await db.selectFrom("discussion").select(["id", "author_id"]).orderBy("id").limit(1).executeTakeFirstOrThrow();
    question = (await db.selectFrom("question").select("id").orderBy("id").limit(1).executeTakeFirstOrThrow()).id;

    const app = express();
    app.use(pageTagsMiddleware(cache, audit));
    app.use((_req, _res, next) => {
      currentPageTags()!.route = { id: "test", policy: "tags" satisfies CachePolicy };
      next();
    });
    app.use(pageCapture(cache, { https: false, development: false }, audit));
    /** A discussion with its author's name, as a read model shows it: `named` says which tags it reads. */
    const page = (named: (id: number, author: string) => string[]) => async (_req: express.Request, res: express.Response) => {
      const row = await db
        .selectFrom("discussion")
        .innerJoin("member", "member.id", "discussion.author_id")
        .select(["discussion.title", "member.name"])
        .where("discussion.id", "=", discussion.id)
        .executeTakeFirstOrThrow();
      readsFrom(...named(discussion.id, discussion.author_id));
      res.type("html").send(`<h1>${row.title}</h1><p>${row.name}</p>`);
    };
    app.get(
      "/forgets-the-author",
      page((id) => [tag.discussion(id)]),
    );
    app.get(
      "/names-both",
      page((id, author) => [tag.discussion(id), tag.member(author)]),
    );
    /** A write in a transaction, as a service makes it: `named` is what it says it wrote. */
    const write = (named: string[]) => async (_req: express.Request, res: express.Response) => {
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable("discussion")
          .set((eb) => ({ title: eb.ref("title") }))
          .where("id", "=", discussion.id)
          .execute();
        wrote(...named);
      });
      res.redirect(303, "/");
    };
    app.post("/names-the-wrong-tag", write([tag.events]));
    app.post("/names-its-discussion", write([tag.discussion(discussion.id)]));
    app.post("/names-nothing-public", write([tag.nothing]));
    app.post("/names-nothing", write([]));
    /** A GET with a side effect on a page (a view count), said or not. */
    const count = (said: boolean) => async (_req: express.Request, res: express.Response) => {
      await db
        .updateTable("question")
        .set((eb) => ({ view_count: eb("view_count", "+", 0) }))
        .where("id", "=", question)
        .execute();
      if (said) changedByRead(tag.question(question));
      res.type("html").send("<p>counted</p>");
    };
    app.get("/counts-silently", count(false));
    app.get("/counts-and-says-so", count(true));
    server = createServer(pageCacheFront({ cache, app }));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }, 60_000);

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await site.destroy();
  });

  /** The violations the audit records for one request, once it has judged it. */
  async function found(method: "GET" | "POST", path: string) {
    const before = audit.violations.length;
    const res = await fetch(base + path, { method, redirect: "manual" });
    await res.arrayBuffer();
    await audit.flush();
    return audit.violations.slice(before).map(({ rule, tables }) => ({ rule, tables }));
  }

  it("fails a kept page whose read model forgot a tag for a table it read, and passes it named", async () => {
    expect(await found("GET", "/forgets-the-author")).toEqual([{ rule: "kept page read an uncovered table", tables: ["member"] }]);
    expect(await found("GET", "/names-both")).toEqual([]);
  });

  it("fails a write (in a transaction) that named the wrong tag or nothing public, and passes the right one or none", async () => {
    expect(await found("POST", "/names-the-wrong-tag")).toEqual([{ rule: "write named no tag for a table", tables: ["discussion"] }]);
    expect(await found("POST", "/names-nothing-public")).toEqual([{ rule: "write named no tag for a table", tables: ["discussion"] }]);
    expect(await found("POST", "/names-its-discussion")).toEqual([]);
    // Naming nothing drops every page: it covers every table.
    expect(await found("POST", "/names-nothing")).toEqual([]);
  });

  it("fails a GET that changed a page's table without changedByRead, and passes it said", async () => {
    expect(await found("GET", "/counts-silently")).toEqual([{ rule: "read wrote without changedByRead", tables: ["question"] }]);
    expect(await found("GET", "/counts-and-says-so")).toEqual([]);
  });
});
