import type { SearchHit } from "./search-types";

/** The index row's columns both engines read for a hit, and the score each gave it. */
export interface HitRow {
  id: number;
  kind: SearchHit["kind"];
  ref_id: number;
  parent_id: number | null;
  author_id: string | null;
  /** An ISO string from SQLite, a Date from PostgreSQL. */
  created_at: string | Date;
  hidden: number;
  parent_hidden: number;
  score: number;
}

/**
 * A hit as both engines return it, from its row and its marked title and excerpt. PostgreSQL's
 * bigints and numerics may arrive as strings, hence the numbers made here; SQLite's time is kept as
 * it is stored, which the newest-first cursor compares against.
 */
export function searchHit(row: HitRow, marked: { title: string | null; excerpt: string | null } | undefined): SearchHit {
  return {
    id: Number(row.id),
    kind: row.kind,
    refId: Number(row.ref_id),
    parentId: row.parent_id === null ? null : Number(row.parent_id),
    authorId: row.author_id,
    createdAt: row.created_at instanceof Date ? row.created_at.toISOString() : row.created_at,
    hidden: Number(row.hidden) === 1 || Number(row.parent_hidden) === 1,
    score: Number(row.score),
    title: marked?.title ?? "",
    excerpt: marked?.excerpt ?? "",
  };
}
