import type { Kysely } from "kysely";
import type { Database } from "./schema";

/**
 * `creation_type_count` holds, per Forge category, how many creations show (not deleted, not
 * hidden): what /forge's category tiles read instead of counting every creation on each request
 * (issue 13, ADR 0036). The posting pipeline moves it (forge-repository.ts); this sets it whole.
 */

/** Sets every category's count from the creation rows (demo content and tools that write creations directly). */
export async function rebuildCreationCounts(db: Kysely<Database>) {
  await db
    .updateTable("creation_type_count")
    .set((eb) => ({
      creations: eb
        .selectFrom("creation")
        .select((c) => c.fn.countAll<number>().as("n"))
        .whereRef("creation.type", "=", "creation_type_count.type")
        .where("creation.deleted_at", "is", null)
        .where("creation.hidden_at", "is", null),
    }))
    .execute();
}
