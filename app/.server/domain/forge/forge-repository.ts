import { engineOf, type Db } from "../../db/connect";
import type { CreationType } from "~/lib/domain-values";
import { activityPage, type ActivityCursor, type PageRequest } from "../../pagination";
import { latestMarker } from "../posts/mark-repository";
import { AUTHOR_COLUMNS } from "../progression/authors";

export const CREATION_TYPES: { id: CreationType; label: string }[] = [
  { id: "writing", label: "Writing" },
  { id: "art", label: "Visual Art" },
  { id: "music", label: "Music" },
  { id: "projects", label: "Projects" },
];

function visibleCreations(db: Db) {
  return db.selectFrom("creation").where("creation.deleted_at", "is", null).where("creation.hidden_at", "is", null);
}

/**
 * The four categories with the number of creations showing in each: one small row per category,
 * kept by the writes that make a creation appear or disappear (ADR 0036), so /forge costs the same
 * with ten creations or a million.
 */
export async function listCategories(db: Db) {
  const rows = await db.selectFrom("creation_type_count").select(["type", "creations"]).execute();
  const counts = new Map(rows.map((r) => [r.type, Number(r.creations)]));
  return CREATION_TYPES.map((t) => ({ ...t, count: counts.get(t.id) ?? 0 }));
}

/**
 * A creation that starts (+1) or stops (-1) showing moves its category's count, in the caller's
 * transaction. One statement that adds to the stored value: concurrent writers queue on the
 * category's row instead of overwriting each other's count.
 */
export async function moveCreationCount(db: Db, creationId: number, delta: number) {
  if (delta === 0) return;
  await db
    .updateTable("creation_type_count")
    .set((eb) => ({ creations: eb("creations", "+", delta) }))
    .where("type", "=", (eb) => eb.selectFrom("creation").select("creation.type").where("creation.id", "=", creationId))
    .execute();
}

/**
 * The author changes a creation's category: the new type is written and, if the creation shows, its
 * count moves from the old category to the new. The row is locked first on PostgreSQL, so two
 * parallel edits (or an edit beside a moderator's hide) each see the type and visibility the other
 * left; SQLite's writers are serial already.
 */
export async function retypeCreation(trx: Db, id: number, type: CreationType) {
  let query = trx.selectFrom("creation").select(["type", "deleted_at", "hidden_at"]).where("id", "=", id);
  if (engineOf(trx) === "postgres") query = query.forUpdate();
  const before = await query.executeTakeFirst();
  if (!before || before.type === type) return;
  await trx.updateTable("creation").set({ type }).where("id", "=", id).execute();
  if (before.deleted_at !== null || before.hidden_at !== null) return;
  // Both rows in one order (by type), whichever way the move goes: two authors moving creations in
  // opposite directions at once must not each hold one row and wait for the other's.
  const moves = [
    { type: before.type, delta: -1 },
    { type, delta: 1 },
  ].sort((x, y) => (x.type < y.type ? -1 : 1));
  for (const move of moves) {
    await trx
      .updateTable("creation_type_count")
      .set((eb) => ({ creations: eb("creations", "+", move.delta) }))
      .where("type", "=", move.type)
      .execute();
  }
}

function creationRows(db: Db, type?: CreationType) {
  let query = visibleCreations(db)
    .innerJoin("member", "member.id", "creation.author_id")
    // The thumbnail's size, so the list reserves its box before the image arrives.
    .leftJoin("media as thumb", "thumb.name", "creation.image_thumb_name")
    .select([
      "creation.id",
      "creation.title",
      "creation.description",
      "creation.type",
      "creation.like_count",
      "creation.comment_count",
      "creation.created_at",
      "creation.author_id",
      "creation.image_thumb_name",
      "thumb.width as thumb_width",
      "thumb.height as thumb_height",
      ...AUTHOR_COLUMNS,
    ]);
  if (type) query = query.where("creation.type", "=", type);
  return query;
}

export async function recentCreations(db: Db, { limit = 5, type }: { limit?: number; type?: CreationType } = {}) {
  return creationRows(db, type).orderBy("creation.created_at", "desc").orderBy("creation.id", "desc").limit(limit).execute();
}

/** A keyset page of creations, newest first: (created_at, id) below or above the cursor. */
export async function creationPageRows(db: Db, type: CreationType | undefined, request: PageRequest<ActivityCursor>, limit: number) {
  // One index range on (created_at, id), or (type, created_at, id) for a category.
  return activityPage(creationRows(db, type), ["creation.created_at", "creation.id"], request, limit);
}

/**
 * One creation with its media: what shows to everyone, and a hidden one to a moderator (who may
 * restore it). Deleted creations are gone for all.
 */
export async function findCreation(db: Db, id: number, { includeHidden = false } = {}) {
  let query = db
    .selectFrom("creation")
    .innerJoin("member", "member.id", "creation.author_id")
    .leftJoin("media as display", "display.name", "creation.image_display_name")
    .select([
      "creation.id",
      "creation.title",
      "creation.description",
      "creation.type",
      "creation.body",
      "creation.body_html",
      "creation.link_url",
      "creation.image_name",
      "creation.image_display_name",
      "display.width as display_width",
      "display.height as display_height",
      "creation.audio_name",
      "creation.like_count",
      "creation.comment_count",
      "creation.created_at",
      "creation.edited_at",
      "creation.hidden_at",
      "creation.author_id",
      ...AUTHOR_COLUMNS,
    ])
    .where("creation.id", "=", id)
    .where("creation.deleted_at", "is", null);
  if (!includeHidden) query = query.where("creation.hidden_at", "is", null);
  return query.executeTakeFirst();
}

/** A creation's comments, oldest first; hidden ones only for a moderator, who may restore them. */
export async function listCreationComments(db: Db, creationId: number, { includeHidden = false, limit = 100 } = {}) {
  let query = db
    .selectFrom("creation_comment")
    .innerJoin("member", "member.id", "creation_comment.author_id")
    .select([
      "creation_comment.id",
      "creation_comment.body",
      "creation_comment.body_html",
      "creation_comment.created_at",
      "creation_comment.edited_at",
      "creation_comment.deleted_at",
      "creation_comment.hidden_at",
      "creation_comment.author_id",
      ...AUTHOR_COLUMNS,
    ])
    .where("creation_comment.creation_id", "=", creationId);
  if (!includeHidden) query = query.where("creation_comment.hidden_at", "is", null);
  return query.orderBy("creation_comment.id", "asc").limit(limit).execute();
}

/** A creation that may be liked and commented on: it shows (neither deleted nor hidden). */
export async function findOpenCreation(db: Db, id: number) {
  return visibleCreations(db).select(["creation.id", "creation.author_id"]).where("creation.id", "=", id).executeTakeFirst();
}

/** Records a like; false when this member liked it already (the primary key lets one in). */
export async function insertLike(db: Db, creationId: number, memberId: string, at: string) {
  const inserted = await db
    .insertInto("creation_like")
    .values({ creation_id: creationId, member_id: memberId, created_at: at })
    .onConflict((oc) => oc.columns(["creation_id", "member_id"]).doNothing())
    .executeTakeFirst();
  return Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** Removes a like; when it was made, or null when there was none. */
export async function deleteLike(db: Db, creationId: number, memberId: string) {
  const removed = await db
    .deleteFrom("creation_like")
    .where("creation_id", "=", creationId)
    .where("member_id", "=", memberId)
    .returning("created_at")
    .executeTakeFirst();
  return removed?.created_at ?? null;
}

/** The member who liked the creation last, since `since` (all when null), other than `except`. */
export function latestLiker(db: Db, creationId: number, except: string, since: string | null) {
  return latestMarker(db, "creation_like", { creation_id: creationId }, except, since);
}

export async function moveLikeCount(db: Db, creationId: number, delta: number) {
  await db
    .updateTable("creation")
    .set((eb) => ({ like_count: eb("like_count", "+", delta) }))
    .where("id", "=", creationId)
    .execute();
}

export async function likeCountOf(db: Db, creationId: number) {
  const row = await db.selectFrom("creation").select("like_count").where("id", "=", creationId).executeTakeFirstOrThrow();
  return Number(row.like_count);
}

export async function hasLiked(db: Db, creationId: number, memberId: string) {
  const row = await db
    .selectFrom("creation_like")
    .select("member_id")
    .where("creation_id", "=", creationId)
    .where("member_id", "=", memberId)
    .executeTakeFirst();
  return row !== undefined;
}
