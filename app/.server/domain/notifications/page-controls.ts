import type { Db } from "../../db/connect";
import { findProfileByHandle } from "../accounts/member-repository";
import { findQuestion } from "../council/council-repository";

/**
 * What the pages' notification controls (issue 28) need to know before they write: the watching
 * control of a question page posts only the question's id, a profile's mute button only the
 * handle in its address.
 */

/** Whether there is a question of this id to watch. */
export async function watchableQuestion(db: Db, id: number) {
  return (await findQuestion(db, id)) !== undefined;
}

/** The id of the member a profile's mute button is about; undefined for a handle no living member has. */
export async function memberIdByHandle(db: Db, handle: string) {
  return (await findProfileByHandle(db, handle))?.id;
}
