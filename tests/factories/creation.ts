import type { Viewer } from "~/.server/context";
import type { Db } from "~/.server/db/connect";
import type { CreationType } from "~/lib/domain-values";
import { member } from "./member";
import { renderMarkdown } from "~/.server/markdown";

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
 * A Forge creation as a plain row: the Forge has no sharing service yet (its pages only read), so
 * this writes what one would, without XP. Once sharing goes through the posting pipeline, this
 * factory should call it instead.
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
  return { id: row.id, title, author };
}
