import type { Viewer } from "~/.server/context";
import type { Db } from "~/.server/db/connect";
import type { CreationType } from "~/lib/domain-values";
import { member } from "./member";
import { renderMarkdown } from "~/.server/markdown";
import { moveCreationCount } from "~/.server/domain/forge/forge-repository";

export interface CreationOverrides {
  author?: Viewer;
  title?: string;
  description?: string;
  type?: CreationType;
  body?: string;
  linkUrl?: string | null;
  at?: Date;
}

let sequence = 0;

/**
 * A Forge creation as a plain row, counted in its category as the posting pipeline counts it, but
 * without XP or the share form's limits, so tests can set up many creations at any date.
 */
export async function creation(db: Db, overrides: CreationOverrides = {}) {
  sequence += 1;
  const author = overrides.author ?? (await member(db));
  const title = overrides.title ?? `Factory creation ${sequence}`;
  const row = await db
    .insertInto("creation")
    .values({
      author_id: author.id,
      title,
      description: overrides.description ?? "A creation for a test.",
      type: overrides.type ?? "writing",
      body: overrides.body ?? "Body",
      body_html: renderMarkdown(overrides.body ?? "Body"),
      link_url: overrides.linkUrl ?? null,
      created_at: (overrides.at ?? new Date()).toISOString(),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  // What the posting pipeline does for a creation that shows: its category counts it (ADR 0036).
  await moveCreationCount(db, row.id, 1);
  return { id: row.id, title, author };
}
