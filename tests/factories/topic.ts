import type { AppServices, Viewer } from "~/.server/context";
import type { SectionId } from "~/lib/domain-values";
import { createTopic } from "~/.server/domain/forum/forum-service";
import { rankById } from "~/lib/ranks";
import { member } from "./member";
import { succeeded } from "./succeeded";

export interface TopicOverrides {
  section?: SectionId;
  title?: string;
  description?: string;
  /** Who creates it; by default a new member at the rank that may create topics. */
  creator?: Viewer;
  at?: Date;
}

let sequence = 0;

/** A topic, created through the forum service (creator's membership and counts as the site makes them). */
export async function topic(services: AppServices, overrides: TopicOverrides = {}) {
  sequence += 1;
  const section = overrides.section ?? "monastery";
  const creator = overrides.creator ?? (await member(services.db, { xp: rankById("disciple").minXp }));
  const title = overrides.title ?? `Factory topic ${sequence}`;
  const created = await createTopic(services, creator, section, { title, description: overrides.description ?? "A topic for a test." }, overrides.at);
  return { id: succeeded("creating a topic", created).id, section, title, creator };
}
