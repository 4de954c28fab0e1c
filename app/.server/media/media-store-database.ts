import { sql } from "kysely";
import type { Db } from "../db/connect";
import { sha256Hex, type MediaInfo, type MediaStore, type NewMedia } from "./media-store";

const INFO = ["name", "content_type", "byte_size", "sha256", "width", "height"] as const;

const toInfo = (row: { name: string; content_type: string; byte_size: number; sha256: string; width: number | null; height: number | null }): MediaInfo => ({
  name: row.name,
  contentType: row.content_type,
  byteSize: Number(row.byte_size),
  sha256: row.sha256,
  width: row.width === null ? null : Number(row.width),
  height: row.height === null ? null : Number(row.height),
});

const bytes = (value: unknown) => (value instanceof Uint8Array ? value : new Uint8Array(value as ArrayBuffer));

/** The MediaStore in the `media` table: one row per stored variant (blob on SQLite, bytea on PostgreSQL). */
export function databaseMediaStore(db: Db): MediaStore {
  return {
    async put(trx, file: NewMedia) {
      await trx
        .insertInto("media")
        .values({
          name: file.name,
          content_type: file.contentType,
          byte_size: file.data.byteLength,
          sha256: sha256Hex(file.data),
          width: file.width ?? null,
          height: file.height ?? null,
          data: file.data,
          owner_id: file.ownerId,
        })
        .execute();
    },
    async head(name) {
      const row = await db.selectFrom("media").select(INFO).where("name", "=", name).executeTakeFirst();
      return row ? toInfo(row) : undefined;
    },
    async get(name) {
      const row = await db
        .selectFrom("media")
        .select([...INFO, "data"])
        .where("name", "=", name)
        .executeTakeFirst();
      return row ? { ...toInfo(row), data: bytes(row.data) } : undefined;
    },
    async getRange(name, start, end) {
      // Both engines cut a blob/bytea with 1-based substr; only the range leaves the database.
      const row = await db
        .selectFrom("media")
        .select(sql<Uint8Array>`substr(data, ${start + 1}, ${end - start + 1})`.as("part"))
        .where("name", "=", name)
        .executeTakeFirst();
      return row ? bytes(row.part) : undefined;
    },
    async delete(trx, names) {
      if (names.length > 0) await trx.deleteFrom("media").where("name", "in", names).execute();
    },
  };
}
