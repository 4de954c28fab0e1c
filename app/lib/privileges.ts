import type { RankId } from "./ranks";

// Privileges by rank (PRODUCT.md §3), shared by the pages that explain them and the services that
// enforce them.

/** Creating topics is the disciple's privilege. */
export const TOPIC_RANK: RankId = "disciple";
/** Initiates may start this many discussions a day; from acolyte on the limit lifts. */
export const INITIATE_DAILY_DISCUSSIONS = 3;
/** From acolyte on, members mark answers helpful (and like creations). */
export const HELPFUL_RANK: RankId = "acolyte";
