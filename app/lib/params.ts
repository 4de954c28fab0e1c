/**
 * The largest id our `integer` id columns hold: they are 32-bit on PostgreSQL (serial/identity
 * `integer`, database/migrations), which answers a larger number with an error, not an empty
 * result. SQLite would take more, but both engines must answer the same (issue 7, item 8).
 */
export const MAX_ID = 2_147_483_647;

/** Whether a decoded number (a cursor's id) is a database id in the columns' range. */
export function isId(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= 1 && value <= MAX_ID;
}

/**
 * A positive database id from a URL segment, query parameter or form field, or null for anything
 * else ("12abc", "-1", "1e3", "007", a file, a number past MAX_ID). Every id that comes from input
 * goes through here.
 */
export function parseId(value: unknown): number | null {
  if (typeof value !== "string" || !/^[1-9][0-9]{0,9}$/.test(value)) return null;
  const id = Number(value);
  return id <= MAX_ID ? id : null;
}
