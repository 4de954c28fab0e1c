import type { ViewerRank } from "../../context";
import type { Db } from "../../db/connect";
import { RANKS, rankById, type Rank } from "~/lib/ranks";
import { changedByRead, tag } from "../../cache/page-tags";
import { storedRank } from "./authors";

const indexOf = (id: string | null) => RANKS.findIndex((r) => r.id === id);

/**
 * The rank the member rose to since they were last shown their rank, once: the member row keeps
 * the rank last shown (`seen_rank`), and a compare-and-set moves it, so two pages loading at once
 * toast once. XP changes in many places (others' likes and votes too), so the check is made when
 * the member next loads a page rather than where the XP moved (ADR 0022). A first look, or a rank
 * that went down (content removed), is recorded without a toast.
 */
export async function noticeRankUp(db: Db, memberId: string, known: ViewerRank | null = null): Promise<Rank | null> {
  // The session's read of the member row brings both ranks, so on almost every page this costs no
  // query (ADR 0027); without it, one primary-key read.
  const row = known
    ? { rank: known.rank, seen_rank: known.seenRank }
    : await db.selectFrom("member").select(["seen_rank", "rank"]).where("id", "=", memberId).executeTakeFirst();
  if (!row) return null;
  const rank = rankById(storedRank(row.rank));
  if (row.seen_rank === rank.id) return null;
  const moved = await db
    .updateTable("member")
    .set({ seen_rank: rank.id })
    .where("id", "=", memberId)
    .where((eb) => (row.seen_rank === null ? eb("seen_rank", "is", null) : eb("seen_rank", "=", row.seen_rank)))
    .executeTakeFirst();
  const won = Number(moved.numUpdatedRows) > 0;
  // Only the member's own pages show the rank last seen (their kept pages' fingerprint holds it,
  // ADR 0040); most often a page load (a GET), whose `wrote` drops nothing.
  if (won) changedByRead(tag.viewer(memberId));
  return won && row.seen_rank !== null && indexOf(rank.id) > indexOf(row.seen_rank) ? rank : null;
}
