// The data bench:ratio and bench:baseline serve: the demo content plus a discussion of exactly 50
// replies from ten members, spread over hours as a real thread would be (and within the posting
// limits). It uses only what the baseline commit (14084b7, before issue 13) has in the same shape (the
// factories, postReply, createServices), so bench:baseline runs this very file inside the baseline's
// tree to give both builds the same page. Run alone: tsx scripts/bench-ratio-data.ts <data dir>, which
// prints the paths as JSON on its last line.
import fs from "node:fs";
import { pathToFileURL } from "node:url";
import pino from "pino";
import { loadEnv } from "../app/.server/env";
import { createServices } from "../app/.server/services";
import { postReply } from "../app/.server/domain/forum/forum-service";
import { migrateToLatest } from "../database/migrate";
import { discussion, member } from "../tests/factories";

export const REPLIES = 50;

export async function prepareRatioData(dataDir: string) {
  const env = loadEnv({ DATA_DIR: dataDir, DEMO_CONTENT: "on", LOG_LEVEL: "silent", PORT: "0" });
  const services = await createServices(env, pino({ level: "silent" }), migrateToLatest);
  try {
    const topic = await services.db.selectFrom("topic").select(["id", "section"]).where("id", "=", "morning-meditation").executeTakeFirstOrThrow();
    const acolyte = { xp: 100 };
    const started = await discussion(services, {
      topic: { id: topic.id, section: topic.section as "monastery" },
      author: await member(services.db, acolyte),
      title: "Fifty replies on sitting still",
      body: "How do you keep a **daily** practice when the day runs away? Share what works.\n\n- one\n- two",
    });
    const repliers = await Promise.all(Array.from({ length: 10 }, () => member(services.db, acolyte)));
    const t0 = Date.now() - REPLIES * 15 * 60_000;
    for (let i = 0; i < REPLIES; i++) {
      const posted = await postReply(
        services,
        repliers[i % repliers.length]!,
        started.id,
        {
          body: `Reply ${i + 1}: I sit for *ten minutes* after coffee, and [this guide](https://example.org/guide) helped.\n\nSome days it is only three breaths.`,
          submissionKey: crypto.randomUUID(),
        },
        new Date(t0 + i * 15 * 60_000),
      );
      if (!posted.ok) throw new Error(`reply ${i + 1}: ${JSON.stringify(posted)}`);
    }
    const question = await services.db.selectFrom("question").select("id").orderBy("id").limit(1).executeTakeFirstOrThrow();
    return {
      topicPath: `/${topic.section}/${topic.id}`,
      discussionPath: `/${topic.section}/${topic.id}/${started.id}-${started.slug}`,
      questionPath: `/council/${question.id}`,
    };
  } finally {
    await services.db.destroy();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(fs.realpathSync(process.argv[1])).href) {
  const dataDir = process.argv[2];
  if (!dataDir) throw new Error("usage: tsx scripts/bench-ratio-data.ts <data dir>");
  console.log(JSON.stringify(await prepareRatioData(dataDir)));
  process.exit(0);
}
