import fs from "node:fs"; import os from "node:os"; import path from "node:path";
import { createDatabase } from "../app/.server/db/connect";
import { renderMarkdown } from "../app/.server/markdown";
import { startBuiltSite } from "./bench-support";
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "ipos-bytes-"));
const { server, base } = await startBuiltSite(dataDir, { DEMO_CONTENT: "on" });
const db = createDatabase({ engine: "sqlite", sqlitePath: path.join(dataDir, "site.db") });
const d = await db.selectFrom("discussion").selectAll().orderBy("id").executeTakeFirstOrThrow();
const authors = (await db.selectFrom("member").select("id").execute()).map((m) => m.id);
const body = "Here is what helped me: **sit at the same time** every day, even for five minutes.\n\n- Start small\n- Count breaths to ten\n- Forgive the wandering mind\n\nAs Marcus Aurelius wrote, [the impediment to action advances action](https://example.org/meditations).";
for (let i = 0; i < 50; i++) await db.insertInto("reply").values({ discussion_id: d.id, author_id: authors[i % authors.length], body: `Reply ${i}: ${body}`, body_html: renderMarkdown(`Reply ${i}: ${body}`), created_at: new Date(Date.now() - (60 - i) * 60000).toISOString() }).execute();
await db.updateTable("discussion").set({ reply_count: 60 }).where("id", "=", d.id).execute();
const topic = await fetch(base + "/monastery").then((r) => r.text());
const links = [...topic.matchAll(/href="(\/monastery\/[^"/]+)"/g)].map((m) => m[1]);
let url = "";
for (const t of links) { const h = await fetch(base + t).then((r) => r.text()); const m = new RegExp(`href="(${t}/${d.id}-[^"]*)"`).exec(h); if (m) { url = m[1]; break; } }
for (const u of [url, url + "?page=last"]) {
  const html = await fetch(base + u).then((r) => r.text());
  const data = await fetch(base + u.replace(/(\?|$)/, ".data$1")).then((r) => r.text());
  const hydration = [...html.matchAll(/<script[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]).filter((s) => s.includes("__reactRouterContext") || s.includes("streamController")).join("").length;
  const replies = (html.match(/id="reply-\d+"/g) ?? []).length;
  const { gzipSync } = await import("node:zlib");
  console.log(u, `replies ${replies}`, `HTML ${html.length} B (gzip ${gzipSync(html).length})`, `hydration scripts ${hydration} B`, `.data ${data.length} B`);
}
server.close(); process.exit(0);
