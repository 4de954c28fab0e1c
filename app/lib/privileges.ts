import { rankById, type RankId } from "./ranks";

// Privileges by rank (PRODUCT.md §3), shared by the pages that explain them (/ranks is generated
// from these) and the services that enforce them.

/**
 * Initiates may start this many new discussions, questions or creations a day, counted together
 * (PRODUCT.md §3); from UNLIMITED_POSTS_RANK on the limit lifts.
 */
export const INITIATE_DAILY_POSTS = 3;
/** The rank at which the daily limit on new discussions, questions and creations lifts. */
export const UNLIMITED_POSTS_RANK: RankId = "acolyte";
export const INITIATE_DAILY_POSTS_MESSAGE =
  `Initiates may start ${INITIATE_DAILY_POSTS} new discussions, questions or creations a day, counted together. ` +
  `Come back tomorrow, or reach the ${rankById(UNLIMITED_POSTS_RANK).label} rank (${rankById(UNLIMITED_POSTS_RANK).minXp} XP) to post more.`;
/** From acolyte on, members mark answers helpful. */
export const HELPFUL_RANK: RankId = "acolyte";
/**
 * Reactions (and the Forge's likes, counted with them): every member from the first day, an
 * initiate at most this many a day (PRODUCT.md §3); from UNLIMITED_REACTIONS_RANK on the limit lifts
 * and their reactions give XP where the XP table says a like does.
 */
export const INITIATE_DAILY_REACTIONS = 20;
export const UNLIMITED_REACTIONS_RANK: RankId = "acolyte";
export const INITIATE_DAILY_REACTIONS_MESSAGE =
  `Initiates may give ${INITIATE_DAILY_REACTIONS} reactions and likes a day. ` +
  `Come back tomorrow, or reach the ${rankById(UNLIMITED_REACTIONS_RANK).label} rank (${rankById(UNLIMITED_REACTIONS_RANK).minXp} XP) to give more.`;
/** Creating topics is the disciple's privilege. */
export const TOPIC_RANK: RankId = "disciple";
/** Proposing challenges for advisors to review is the sage's privilege (promised on /ranks). */
export const CHALLENGE_RANK: RankId = "sage";

/**
 * New-member safeguards (issue 31, Discourse's trust level 0): an initiate's post holds at most
 * this many links and images; from NEW_MEMBER_LIMITS_RANK on, any number.
 */
export const NEW_MEMBER_LINKS = 2;
export const NEW_MEMBER_IMAGES = 1;
export const NEW_MEMBER_LIMITS_RANK: RankId = "acolyte";
export const NEW_MEMBER_LINKS_MESSAGE =
  `New members may put at most ${NEW_MEMBER_LINKS} links and ${NEW_MEMBER_IMAGES} image in a post. ` +
  `Reach the ${rankById(NEW_MEMBER_LIMITS_RANK).label} rank (${rankById(NEW_MEMBER_LIMITS_RANK).minXp} XP) to share more.`;
