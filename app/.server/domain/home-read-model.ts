import type { Db } from "../db/connect";
import { readsFrom, tag } from "../cache/page-tags";
import { questionSummaries } from "./council/council-read-model";
import { creationSummaries } from "./forge/forge-read-model";
import { featuredDiscussionSummaries, sectionTopics } from "./forum/section-read-model";

/**
 * The home page: three topics of each section, two featured discussions, the latest creations and
 * questions. The page cache keeps `/` until a section, the Forge or the Council changes (ADR 0026),
 * named here for the page as a whole; the read models it calls add their own, finer tags.
 */
export async function homePage(db: Db) {
  readsFrom(tag.section("monastery"), tag.section("battlefield"), tag.forge, tag.council);
  const [monastery, battlefield, featured, creations, questions] = await Promise.all([
    sectionTopics(db, "monastery", 3),
    sectionTopics(db, "battlefield", 3),
    featuredDiscussionSummaries(db, { limit: 2 }),
    creationSummaries(db, { limit: 3 }),
    questionSummaries(db, 3),
  ]);
  return { monastery, battlefield, featured, creations, questions };
}
