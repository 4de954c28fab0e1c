import type { Db } from "../../db/connect";
import type { CreationType } from "~/lib/domain-values";

export const CREATION_TYPES: { id: CreationType; label: string }[] = [
  { id: "writing", label: "Writing" },
  { id: "art", label: "Visual Art" },
  { id: "music", label: "Music" },
  { id: "projects", label: "Projects" },
];

function visibleCreations(db: Db) {
  return db
    .selectFrom("creation")
    .where("creation.deleted_at", "is", null)
    .where("creation.hidden_at", "is", null);
}

/** The four categories with the live number of creations in each. */
export async function listCategories(db: Db) {
  const rows = await visibleCreations(db)
    .select(["creation.type", (eb) => eb.fn.countAll<number>().as("count")])
    .groupBy("creation.type")
    .execute();
  const counts = new Map(rows.map((r) => [r.type, Number(r.count)]));
  return CREATION_TYPES.map((t) => ({ ...t, count: counts.get(t.id) ?? 0 }));
}

export async function recentCreations(db: Db, { limit = 5, type }: { limit?: number; type?: CreationType } = {}) {
  let query = visibleCreations(db)
    .innerJoin("member", "member.id", "creation.author_id")
    .select([
      "creation.id",
      "creation.title",
      "creation.description",
      "creation.type",
      "creation.like_count",
      "creation.comment_count",
      "creation.created_at",
      "creation.author_id",
      "member.name as author_name",
      "member.handle as author_handle",
    ]);
  if (type) query = query.where("creation.type", "=", type);
  return query.orderBy("creation.created_at", "desc").orderBy("creation.id", "desc").limit(limit).execute();
}

export async function findCreation(db: Db, id: number) {
  return visibleCreations(db)
    .innerJoin("member", "member.id", "creation.author_id")
    .select([
      "creation.id",
      "creation.title",
      "creation.description",
      "creation.type",
      "creation.body",
      "creation.body_html",
      "creation.link_url",
      "creation.like_count",
      "creation.comment_count",
      "creation.created_at",
      "creation.edited_at",
      "creation.author_id",
      "member.name as author_name",
      "member.handle as author_handle",
    ])
    .where("creation.id", "=", id)
    .executeTakeFirst();
}

export async function listCreationComments(db: Db, creationId: number, limit = 100) {
  return db
    .selectFrom("creation_comment")
    .innerJoin("member", "member.id", "creation_comment.author_id")
    .select([
      "creation_comment.id",
      "creation_comment.body",
      "creation_comment.body_html",
      "creation_comment.created_at",
      "creation_comment.deleted_at",
      "creation_comment.author_id",
      "member.name as author_name",
      "member.handle as author_handle",
    ])
    .where("creation_comment.creation_id", "=", creationId)
    .where("creation_comment.hidden_at", "is", null)
    .orderBy("creation_comment.id", "asc")
    .limit(limit)
    .execute();
}
