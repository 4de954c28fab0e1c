import { rankById, type RankId } from "./ranks";

// Privileges by rank (PRODUCT.md §3), shared by the pages that explain them and the services that
// enforce them.

/** Creating topics is the disciple's privilege. */
export const TOPIC_RANK: RankId = "disciple";
/**
 * Initiates may start this many new discussions, questions or creations a day, counted together
 * (PRODUCT.md §3); from acolyte on the limit lifts.
 */
export const INITIATE_DAILY_POSTS = 3;
export const INITIATE_DAILY_POSTS_MESSAGE =
  `Initiates may start ${INITIATE_DAILY_POSTS} new discussions, questions or creations a day, counted together. ` +
  `Come back tomorrow, or reach the Acolyte rank (${rankById("acolyte").minXp} XP) to post more.`;
/** From acolyte on, members mark answers helpful (and like creations). */
export const HELPFUL_RANK: RankId = "acolyte";
