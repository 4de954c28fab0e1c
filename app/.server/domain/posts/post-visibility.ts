import { sql } from "kysely";

/** The tables that hold posts (post-kinds.ts's PostTable). */
type PostTable = "discussion" | "reply" | "question" | "answer" | "creation" | "creation_comment";

/**
 * A post of this table that anyone may read: neither deleted by its author nor hidden by a
 * moderator. What public lists (a profile's, the sitemap) hold, so a link never leads to a page
 * that is not there.
 */
export function publiclyShown(table: PostTable) {
  return sql<boolean>`${sql.ref(`${table}.deleted_at`)} is null and ${sql.ref(`${table}.hidden_at`)} is null`;
}
