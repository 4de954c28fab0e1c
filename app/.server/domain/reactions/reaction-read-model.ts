import type { Viewer } from "../../context";
import type { Db } from "../../db/connect";
import type { PostKind } from "../posts/post-kinds";
import { isModerator } from "../accounts/roles";
import { postKey, postPlaces, type PostRef } from "../posts/post-places";
import { REACTION_NAMES, noReactions, type Reaction, type ReactionBar } from "~/lib/reactions";
import { reactionCounts, reactionsBy, reactorsOf } from "./reaction-repository";
import { profilePath } from "~/lib/members";

/** A post on a page, as its reaction bar needs it. */
export interface ReactionTarget extends PostRef {
  /** The viewer wrote it: they see its counts but cannot react. */
  mine: boolean;
  deleted: boolean;
  /** Hidden by a moderator (or under a hidden post): counts only, for the moderators who see it. */
  hidden: boolean;
  /** The page and anchor to come back to after reacting. */
  back: string;
}

export const reactionsPath = (post: PostRef) => `/reactions/${post.kind}/${post.id}`;

/**
 * A thread's reaction targets: its opening post, then the posts under it (replies, answers,
 * comments), each hidden with the opening post too, and coming back to its own anchor.
 */
export function threadReactionTargets(
  opening: ReactionTarget,
  kind: PostKind,
  posts: ReadonlyArray<{ id: number; mine: boolean; deleted: boolean; hidden: boolean }>,
  backTo: (id: number) => string,
): ReactionTarget[] {
  return [opening, ...posts.map((p) => ({ kind, id: p.id, mine: p.mine, deleted: p.deleted, hidden: p.hidden || opening.hidden, back: backTo(p.id) }))];
}

/**
 * The reaction bars of a page's posts, by `postKey` (the route renders them as markup): two queries for the whole page (the
 * kept counts; the viewer's own reactions), never one per post. A deleted post has none. The page
 * reads its own tag, which every reaction names, and a member's page reads `tag.viewer`, which their
 * own reactions drop (ADR 0040).
 */
export async function reactionBars(db: Db, viewer: Viewer | null, targets: readonly ReactionTarget[]): Promise<Map<string, ReactionBar>> {
  const shown = targets.filter((t) => !t.deleted);
  const [counts, mine] = await Promise.all([reactionCounts(db, shown), viewer ? reactionsBy(db, viewer.id, shown) : Promise.resolve(new Set<string>())]);
  const bars = new Map<string, ReactionBar>();
  for (const t of shown) {
    const key = postKey(t);
    bars.set(key, {
      path: reactionsPath(t),
      counts: counts.get(key) ?? noReactions(),
      mine: REACTION_NAMES.filter((r) => mine.has(`${key}:${r}`)),
      canReact: viewer !== null && !t.mine && !t.hidden,
      back: t.back,
      // Any member may flag what shows and is not theirs (issue 31).
      flag: viewer !== null && !t.mine && !t.hidden ? `/flags/${t.kind}/${t.id}` : null,
    });
  }
  return bars;
}

/** The most members "Who reacted" lists; past it, how many more. */
export const REACTORS_SHOWN = 500;

/**
 * The "Who reacted" page of a post: where the post is, and who gave it each reaction, earliest
 * first; null for a post the viewer cannot read (deleted, or hidden to all but moderators).
 */
export async function reactionsPage(db: Db, viewer: Viewer | null, post: PostRef) {
  const place = (await postPlaces(db, [post])).get(postKey(post));
  if (!place || place.deleted || (place.hidden && !isModerator(viewer))) return null;
  return { title: place.title, url: place.url, where: place.where, reactions: await whoReacted(db, post) };
}

/** Who gave a post each reaction, earliest first, grouped by reaction. */
async function whoReacted(db: Db, post: { kind: PostKind; id: number }) {
  const rows = await reactorsOf(db, post, REACTORS_SHOWN + 1);
  const counts = (await reactionCounts(db, [post])).get(postKey(post)) ?? noReactions();
  const shown = rows.slice(0, REACTORS_SHOWN);
  return REACTION_NAMES.filter((r) => counts[r] > 0).map((reaction: Reaction) => {
    const members = shown.filter((row) => row.reaction === reaction).map((row) => ({ name: row.name, profile: profilePath(row.handle) }));
    return { reaction, count: counts[reaction], members, more: counts[reaction] - members.length };
  });
}
