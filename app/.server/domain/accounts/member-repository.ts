import type { Db } from "../../db/connect";

type Executor = Pick<Db, "selectFrom" | "insertInto" | "deleteFrom" | "updateTable">;

export async function findMemberIdByEmail(db: Executor, email: string) {
  const row = await db.selectFrom("member").select("id").where("email", "=", email.toLowerCase()).executeTakeFirst();
  return row?.id ?? null;
}

export async function handleTaken(db: Executor, handle: string) {
  const row = await db.selectFrom("member").select("id").where("handle", "=", handle).executeTakeFirst();
  return row !== undefined;
}
