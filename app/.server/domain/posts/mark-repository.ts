import type { Executor } from "../../db/executor";
import type { PostKind } from "./post-kinds";

/**
 * The marks a member puts on a post at most once each (a helpful vote, a like, a reaction), each
 * table naming the post in its own columns.
 */
interface MarkedPost {
  helpful_vote: { answer_id: number };
  creation_like: { creation_id: number };
  reaction: { kind: PostKind; post_id: number };
}

/**
 * The member who marked the post last since `since` (all when null), other than `except`: whom a
 * notice's gathered line names once `except` took their mark back (withdrawFromGroup).
 */
export async function latestMarker<T extends keyof MarkedPost>(db: Executor, table: T, post: MarkedPost[T], except: string, since: string | null) {
  const row = await db
    .selectFrom(table as keyof MarkedPost)
    .select("member_id")
    .where((eb) => eb.and(post))
    .where("member_id", "!=", except)
    .$if(since !== null, (q) => q.where("created_at", ">", since!))
    .orderBy("created_at", "desc")
    .limit(1)
    .executeTakeFirst();
  return row?.member_id ?? null;
}
