import type { Db } from "../../db/connect";
import { postKey, postPlaces, type PostRef } from "../posts/post-places";
import { postBodies } from "../posts/post-repository";
import { FLAG_REASONS, isFlagReason } from "~/lib/flags";
import { profilePath } from "~/lib/members";
import { rankById, type RankId } from "~/lib/ranks";
import { excerptOf } from "~/lib/text";
import type { Viewer } from "../../context";
import { isModerator } from "../accounts/roles";
import { authorsRecord, countPendingReviewItems, hasFlagged, pendingFlagsOf, pendingReviewItems } from "./flag-repository";

/** The most items /review shows at once: the oldest, which are decided first. */
export const REVIEW_PAGE = 50;

const KIND_LABELS = { discussion: "Discussion", reply: "Reply", question: "Question", answer: "Answer", creation: "Creation", comment: "Comment" } as const;

/**
 * The review queue (issue 31): flagged posts waiting for a moderator, oldest first, each with where
 * it is, what it says, its flags and its author's history. A fixed number of queries for the page:
 * the items, their places (one per kind), their bodies (one per kind), their flags, their authors.
 */
export async function reviewQueue(db: Db) {
  const [items, waiting] = await Promise.all([pendingReviewItems(db, REVIEW_PAGE), countPendingReviewItems(db)]);
  const refs: PostRef[] = items.map((i) => ({ kind: i.kind, id: Number(i.post_id) }));
  const [places, bodies, flags, authors] = await Promise.all([
    postPlaces(db, refs),
    postBodies(db, refs),
    pendingFlagsOf(db, refs),
    authorsRecord(db, [...new Set(items.map((i) => i.author_id))]),
  ]);
  return {
    waiting,
    items: items.map((item) => {
      const ref = { kind: item.kind, id: Number(item.post_id) };
      const key = postKey(ref);
      const place = places.get(key);
      const author = authors.find((a) => a.id === item.author_id);
      return {
        ...ref,
        key,
        kindLabel: KIND_LABELS[item.kind],
        title: place?.title ?? "",
        url: place?.url ?? null,
        where: place?.where ?? "",
        deleted: place?.deleted ?? true,
        hidden: place?.hidden ?? false,
        hiddenByFlags: item.hidden_by_flags_at !== null,
        // A new member's first post caught by spam signals, waiting for approval.
        approval: item.reason === "approval",
        excerpt: excerptOf(bodies.get(key) ?? "", 400),
        openedAt: new Date(item.opened_at).toISOString(),
        weight: Number(item.weight),
        flags: flags
          .filter((f) => f.kind === item.kind && Number(f.post_id) === ref.id)
          .map((f) => ({
            reason: isFlagReason(f.reason) ? FLAG_REASONS[f.reason].label : f.reason,
            note: f.note,
            weight: Number(f.weight),
            by: f.name,
            profile: profilePath(f.handle),
            at: new Date(f.created_at).toISOString(),
          })),
        author: author
          ? {
              name: author.name,
              profile: profilePath(author.handle),
              rank: rankById(author.rank as RankId).label,
              since: new Date(author.created_at).toISOString(),
              agreedAgainst: Number(author.agreed_against ?? 0),
              cleared: Number(author.cleared ?? 0),
            }
          : null,
      };
    }),
  };
}

/**
 * The flag form's page: where the post is. A post that is not there for the member is a 404, except
 * one they flagged themselves, whose page answers their flag (the flag that hid it, or a reload).
 */
export async function flagFormPage(db: Db, viewer: Viewer, post: PostRef) {
  const place = (await postPlaces(db, [post])).get(postKey(post));
  if (!place || place.deleted) return null;
  if (place.hidden && !isModerator(viewer) && !(await hasFlagged(db, viewer.id, post))) return null;
  return { title: place.title, url: place.url, where: place.where };
}
