// Issue 3's benchmark: a topic with 10,000 discussions and a discussion with 5,000 replies on
// SQLite; prints the server time of their first and last pages, measured over loopback HTTP against
// the production build (`npm run build` first). Run: npm run bench:forum
import { renderMarkdown } from "../app/.server/markdown";
import { migrateToLatest } from "../database/migrate";
import { benchDatabase, benchTopic } from "./bench-database";
import { startBuiltSite, timePage } from "./bench-support";

const DISCUSSIONS = 10_000;
const REPLIES = 5_000;
const RUNS = Number(process.env.RUNS ?? 30);

const { db, dataDir, cleanUp } = await benchDatabase("sqlite", "bench");
await migrateToLatest(db);

console.log(`seeding ${DISCUSSIONS} discussions and ${REPLIES} replies…`);
const t0 = Date.now() - DISCUSSIONS * 60_000;
await db.transaction().execute(async (trx) => {
  await benchTopic(trx, {
    id: "bench-topic",
    title: "Bench Topic",
    description: "Ten thousand discussions.",
    createdAt: new Date(t0),
    lastActivityAt: new Date(),
    discussions: DISCUSSIONS,
    replies: REPLIES,
  });
  for (let start = 0; start < DISCUSSIONS; start += 500) {
    await trx
      .insertInto("discussion")
      .values(
        Array.from({ length: Math.min(500, DISCUSSIONS - start) }, (_, j) => {
          const i = start + j;
          const at = new Date(t0 + i * 60_000).toISOString();
          return {
            topic_id: "bench-topic",
            author_id: "bench",
            title: `Bench discussion number ${i}`,
            slug: `bench-discussion-number-${i}`,
            body: `Body of discussion ${i} with **Markdown**.`,
            body_html: renderMarkdown(`Body of discussion ${i} with **Markdown**.`),
            excerpt: `Body of discussion ${i} with Markdown.`,
            created_at: at,
            last_activity_at: at,
          };
        }),
      )
      .execute();
  }
  const busiest = await trx.selectFrom("discussion").select("id").orderBy("id", "desc").limit(1).executeTakeFirstOrThrow();
  for (let start = 0; start < REPLIES; start += 500) {
    await trx
      .insertInto("reply")
      .values(
        Array.from({ length: Math.min(500, REPLIES - start) }, (_, j) => ({
          discussion_id: busiest.id,
          author_id: "bench",
          body: `Reply ${start + j}: a paragraph of *Markdown* with a [link](https://example.org).`,
          body_html: renderMarkdown(`Reply ${start + j}: a paragraph of *Markdown* with a [link](https://example.org).`),
          created_at: new Date(t0 + (start + j) * 1000).toISOString(),
        })),
      )
      .execute();
  }
  await trx.updateTable("discussion").set({ reply_count: REPLIES }).where("id", "=", busiest.id).execute();
});
const busiest = await db.selectFrom("discussion").select(["id", "slug"]).orderBy("id", "desc").limit(1).executeTakeFirstOrThrow();
await db.destroy();

const { stop, base } = await startBuiltSite(dataDir);
const time = (url: string) => timePage(base, url, RUNS);

const discussion = `/monastery/bench-topic/${busiest.id}-${busiest.slug}`;
const pages: [string, string][] = [
  [`topic, first page (of ${DISCUSSIONS} discussions)`, "/monastery/bench-topic"],
  ["topic, last page", "/monastery/bench-topic?page=last"],
  [`discussion, first page (of ${REPLIES} replies)`, discussion],
  ["discussion, last page", `${discussion}?page=last`],
];
console.log(`server time over loopback HTTP, ${RUNS} runs each (SQLite):`);
for (const [label, url] of pages) {
  const { median, p95 } = await time(url);
  console.log(`  ${label.padEnd(44)} median ${median.toFixed(1).padStart(6)} ms   p95 ${p95.toFixed(1).padStart(6)} ms`);
}
await stop();
await cleanUp();
process.exit(0);
