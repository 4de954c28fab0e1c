import type { Executor } from "../../db/executor";
import type { PostKind } from "./post-kinds";

export async function insertRevision(
  db: Executor,
  revision: { kind: PostKind; postId: number; title: string | null; body: string; writtenAt: string; replacedAt: string; diffHtml: string },
) {
  await db
    .insertInto("post_revision")
    .values({
      kind: revision.kind,
      post_id: revision.postId,
      title: revision.title,
      body: revision.body,
      written_at: revision.writtenAt,
      replaced_at: revision.replacedAt,
      diff_html: revision.diffHtml,
    })
    .execute();
}

/** A post's kept revisions, newest first. */
export async function revisionsOf(db: Executor, kind: PostKind, id: number) {
  return db
    .selectFrom("post_revision")
    .select(["id", "title", "written_at", "replaced_at", "diff_html"])
    .where("kind", "=", kind)
    .where("post_id", "=", id)
    .orderBy("id", "desc")
    .execute();
}
