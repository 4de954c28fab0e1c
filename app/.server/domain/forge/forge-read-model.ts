import type { Db } from "../../db/connect";
import type { CreationType } from "~/lib/domain-values";
import { toIso } from "~/lib/dates";
import { postHtml } from "../../markdown";
import { withAuthors } from "../progression/authors";
import { findCreation, listCategories, listCreationComments, recentCreations } from "./forge-repository";

export { listCategories };

export async function creationSummaries(db: Db, options: { limit?: number; type?: CreationType } = {}) {
  const rows = await withAuthors(db, await recentCreations(db, options));
  return rows.map((c) => ({
    id: c.id,
    title: c.title,
    description: c.description,
    type: c.type,
    likes: Number(c.like_count),
    comments: Number(c.comment_count),
    author: c.author,
  }));
}

export async function creationWithComments(db: Db, id: number) {
  const row = await findCreation(db, id);
  if (!row) return null;
  const comments = await listCreationComments(db, id);
  const [creation] = await withAuthors(db, [row]);
  const withCommentAuthors = await withAuthors(db, comments);
  return {
    creation: {
      id: creation.id,
      title: creation.title,
      description: creation.description,
      type: creation.type,
      html: postHtml(creation),
      linkUrl: creation.link_url,
      likes: Number(creation.like_count),
      comments: Number(creation.comment_count),
      createdAt: toIso(creation.created_at),
      edited: creation.edited_at !== null,
      author: creation.author,
    },
    comments: withCommentAuthors.map((c) => ({
      id: c.id,
      html: c.deleted_at ? null : postHtml(c),
      createdAt: toIso(c.created_at),
      author: c.author,
    })),
  };
}
