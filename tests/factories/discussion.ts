import { randomUUID } from "node:crypto";
import type { AppServices, Viewer } from "~/.server/context";
import type { SectionId } from "~/lib/domain-values";
import { startDiscussion } from "~/.server/domain/forum/forum-service";
import { rankById } from "~/lib/ranks";
import { member } from "./member";
import { succeeded } from "./succeeded";
import { topic } from "./topic";

export interface DiscussionOverrides {
  /** Where it is started; by default a new topic in the Monastery. */
  topic?: { id: string; section: SectionId };
  /** By default a new Acolyte, so the initiate's daily limit never decides a test that is not about it. */
  author?: Viewer;
  title?: string;
  body?: string;
  submissionKey?: string;
  at?: Date;
}

let sequence = 0;

/** A discussion, started through the forum service (XP, counts and excerpt as the site makes them). */
export async function discussion(services: AppServices, overrides: DiscussionOverrides = {}) {
  sequence += 1;
  const where = overrides.topic ?? (await topic(services));
  const author = overrides.author ?? (await member(services.db, { xp: rankById("acolyte").minXp }));
  const title = overrides.title ?? `Factory discussion ${sequence}`;
  const started = await startDiscussion(
    services,
    author,
    where.section,
    where.id,
    { title, body: overrides.body ?? "A discussion for a test.", submissionKey: overrides.submissionKey ?? randomUUID() },
    overrides.at,
  );
  const { id, slug } = succeeded("starting a discussion", started);
  return { id, slug, title, topicId: where.id, section: where.section, author };
}
