// Issue 7 item 3's benchmark: hostile Markdown of 20,000 characters (the post limit) through the
// excerpt and the renderer, then a topic with three hostile posts over loopback HTTP against the
// production build (`npm run build` first; without a build only the first part runs).
// Run: npm run bench:markdown
import fs from "node:fs";
import { renderMarkdown } from "../app/.server/markdown";
import { excerptOf } from "../app/lib/text";
import { migrateToLatest } from "../database/migrate";
import { benchDatabase, benchTopic } from "./bench-database";
import { startBuiltSite, timePage } from "./bench-support";

const LENGTH = 20_000;
const RUNS = Number(process.env.RUNS ?? 15);
const fill = (unit: string) => unit.repeat(Math.ceil(LENGTH / unit.length)).slice(0, LENGTH);

// Shapes known to hurt Markdown parsers and bracket-matching regexes, and one ordinary post.
const SHAPES: [string, string][] = [
  ["![ repeated", fill("![")],
  ["[ repeated", fill("[")],
  ["[a]( repeated", fill("[a](")],
  ["![a]( repeated", fill("![a](")],
  ["[x][ repeated", fill("[x][")],
  ["*a repeated", fill("*a")],
  ["a_ repeated", fill("a_")],
  ["**_ repeated", fill("**_")],
  ["~~a repeated", fill("~~a")],
  ["> nested", fill(">")],
  ["> a lines", fill(">a\n")],
  ["` repeated", fill("`")],
  ["< repeated", fill("<")],
  ["``` fences", fill("```a\n")],
  ["link reference chain", fill("[a]: /b\n[a]\n")],
  [
    "nested lists",
    Array.from({ length: 400 }, (_, i) => `${" ".repeat(i * 2)}- a`)
      .join("\n")
      .slice(0, LENGTH),
  ],
  ["http://a_ linkify", `http://${fill("a_")}`.slice(0, LENGTH)],
  ["ordinary post", fill("Sit **ten minutes** a day. See [my notes](https://example.org/n) and `code`.\n\n")],
];

function median(f: () => void) {
  f();
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    f();
    samples.push(performance.now() - started);
  }
  return samples.sort((a, b) => a - b)[Math.floor(samples.length / 2)];
}

console.log(`${LENGTH.toLocaleString("en")} characters, median of ${RUNS} runs:`);
console.log(`  ${"input".padEnd(22)} ${"excerptOf".padStart(10)} ${"renderMarkdown".padStart(15)}`);
for (const [label, source] of SHAPES) {
  const excerpt = median(() => excerptOf(source));
  const render = median(() => renderMarkdown(source));
  console.log(`  ${label.padEnd(22)} ${excerpt.toFixed(2).padStart(7)} ms ${render.toFixed(2).padStart(12)} ms`);
}

if (!fs.existsSync("build/server/index.js")) {
  console.log("no build/server/index.js: run `npm run build` for the HTTP part");
  process.exit(0);
}

const { db, dataDir, cleanUp } = await benchDatabase("sqlite", "bench-md");
await migrateToLatest(db);
const at = new Date().toISOString();
await benchTopic(db, {
  id: "hostile",
  title: "Hostile Markdown",
  description: "Three hostile posts.",
  createdAt: new Date(at),
  lastActivityAt: new Date(at),
  discussions: 3,
});
const hostile = [fill("!["), fill("["), fill("[a](")];
for (const [i, body] of hostile.entries()) {
  // As the forum service writes a discussion: the excerpt made once, here.
  await db
    .insertInto("discussion")
    .values({
      topic_id: "hostile",
      author_id: "bench",
      title: `Hostile post ${i}`,
      slug: `hostile-post-${i}`,
      body,
      body_html: renderMarkdown(body),
      excerpt: excerptOf(body),
      created_at: at,
      last_activity_at: at,
    })
    .execute();
}
const first = await db.selectFrom("discussion").select(["id", "slug"]).orderBy("id").executeTakeFirstOrThrow();
await db.destroy();

const { stop, base } = await startBuiltSite(dataDir);
const time = (url: string) => timePage(base, url, RUNS);

console.log(`server time over loopback HTTP, ${RUNS} runs each (SQLite):`);
for (const [label, url] of [
  ["topic with three hostile posts", "/monastery/hostile"],
  ["discussion whose body is ![ x 10,000", `/monastery/hostile/${first.id}-${first.slug}`],
]) {
  const { median: m, p95 } = await time(url);
  console.log(`  ${label.padEnd(40)} median ${m.toFixed(1).padStart(6)} ms   p95 ${p95.toFixed(1).padStart(6)} ms`);
}
await stop();
await cleanUp();
process.exit(0);
