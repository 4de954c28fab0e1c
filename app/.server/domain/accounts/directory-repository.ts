import { sql } from "kysely";
import type { Executor } from "../../db/executor";
import { DELETED_HANDLE_PREFIX } from "~/lib/members";
import type { DirectoryCursor } from "../../pagination";

/**
 * The members directory's query (issue 30), also what search shows of members: living members,
 * whose name or handle holds every word, of a rank and a path if asked, most XP or newest first.
 */
export interface DirectoryQuery {
  /** Lower-case words, each in the name or the handle. */
  words: readonly string[];
  rank: string | null;
  /** The interests that lean to this path (see PATH_INTERESTS). */
  interests: readonly string[] | null;
  sort: "xp" | "newest";
  after: DirectoryCursor | null;
  limit: number;
}

/** `%`, `_` and the escape itself taken literally in a LIKE pattern. */
const likeLiteral = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

export async function directoryPage(db: Executor, query: DirectoryQuery) {
  let q = db
    .selectFrom("member")
    .select(["id", "name", "handle", "bio", "rank", "xp", "created_at", "avatar"])
    .where("handle", "not like", `${DELETED_HANDLE_PREFIX}%`);
  for (const word of query.words) {
    const pattern = `%${likeLiteral(word)}%`;
    q = q.where((eb) =>
      eb.or([sql<boolean>`lower(${eb.ref("name")}) like ${pattern} escape '\\'`, sql<boolean>`${eb.ref("handle")} like ${pattern} escape '\\'`]),
    );
  }
  if (query.rank) q = q.where("rank", "=", query.rank);
  // Interests are a JSON array of keys: each key is found with its quotes.
  if (query.interests) q = q.where((eb) => eb.or(query.interests!.map((key) => eb("interests", "like", `%"${key}"%`))));
  const after = query.after;
  if (query.sort === "xp") {
    if (after?.sort === "xp") q = q.where((eb) => eb.or([eb("xp", "<", after.xp), eb.and([eb("xp", "=", after.xp), eb("handle", ">", after.handle)])]));
    q = q.orderBy("xp", "desc").orderBy("handle");
  } else {
    if (after?.sort === "newest") {
      q = q.where((eb) => eb.or([eb("created_at", "<", after.at), eb.and([eb("created_at", "=", after.at), eb("handle", ">", after.handle)])]));
    }
    q = q.orderBy("created_at", "desc").orderBy("handle");
  }
  return q.limit(query.limit).execute();
}
