import { sql, type SelectQueryBuilder, type StringReference } from "kysely";
import { isProfileHandle } from "~/lib/members";
import { isId, MAX_ID, parseId } from "~/lib/params";

/**
 * Keyset pagination cursors (issue 3: a cursor, not OFFSET). A cursor is opaque to the member:
 * base64url of a small JSON array. Anything that does not decode to the expected shape is a
 * refused page request (the route answers 400), never a 500 and never a silently wrong page.
 * Nothing here knows about HTTP: the outcome says what went wrong, the route picks the status.
 */
export interface ActivityCursor {
  at: string;
  id: number;
}

export const INVALID_PAGE_LINK = "That page link is not valid.";

/** A page request, or the refusal of one; the same shape as a domain Outcome, so routes treat both alike. */
export type PageRequestOutcome<C> = { ok: true; value: PageRequest<C> } | { ok: false; status: 400; errors: { form: string } };

const refused = { ok: false, status: 400, errors: { form: INVALID_PAGE_LINK } } as const;

/** A cursor's JSON, or null when the text is not base64url of JSON (or is longer than any cursor). */
function cursorJson(raw: string, maxLength: number): unknown {
  if (raw.length > maxLength || !/^[A-Za-z0-9_-]+$/.test(raw)) return null;
  try {
    return JSON.parse(Buffer.from(raw, "base64url").toString("utf8"));
  } catch {
    return null;
  }
}

export function encodeActivityCursor(cursor: ActivityCursor): string {
  return Buffer.from(JSON.stringify([cursor.at, cursor.id])).toString("base64url");
}

/** The cursor, or null when the text is not one. */
export function decodeActivityCursor(raw: string): ActivityCursor | null {
  const value = cursorJson(raw, 200);
  if (!Array.isArray(value) || value.length !== 2) return null;
  const [at, id] = value as [unknown, unknown];
  if (!isInstant(at) || !isId(id)) return null;
  return { at, id };
}

/**
 * A UTC instant that exists on the calendar. Date.parse rolls "2026-02-30" over to March 2 and
 * "24:00" to the next day, where PostgreSQL answers with an error: the parsed value must print back
 * as the same date and time (to the second; the fraction may be longer than milliseconds).
 */
function isInstant(at: unknown): at is string {
  if (typeof at !== "string" || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$/.test(at)) return false;
  const time = Date.parse(at);
  return time >= 0 && new Date(time).toISOString().slice(0, 19) === at.slice(0, 19);
}

/**
 * Where a page of search results ends (issue 30): a hit's score, time and index row, or for the
 * member results a member's XP and handle.
 */
export type SearchPageCursor = { kind: "hit"; score: number; at: string; id: number } | { kind: "member"; xp: number; handle: string };

export function encodeSearchCursor(cursor: SearchPageCursor): string {
  const value = cursor.kind === "hit" ? ["h", cursor.score, cursor.at, cursor.id] : ["m", cursor.xp, cursor.handle];
  return Buffer.from(JSON.stringify(value)).toString("base64url");
}

/** The search cursor, or null when the text is not one (each part checked against its column's range). */
export function decodeSearchCursor(raw: string): SearchPageCursor | null {
  const value = cursorJson(raw, 300);
  if (!Array.isArray(value)) return null;
  if (value.length === 4 && value[0] === "h") {
    const [, score, at, id] = value as [string, unknown, unknown, unknown];
    if (typeof score !== "number" || !Number.isFinite(score) || Math.abs(score) > 1e9 || !isInstant(at) || !isId(id)) return null;
    return { kind: "hit", score, at, id };
  }
  if (value.length === 3 && value[0] === "m") {
    const [, xp, handle] = value as [string, unknown, unknown];
    if (typeof xp !== "number" || !Number.isInteger(xp) || xp < 0 || xp > MAX_ID || typeof handle !== "string" || !isProfileHandle(handle)) return null;
    return { kind: "member", xp, handle };
  }
  return null;
}

/** Where a page of the members directory ends (issue 30): the last member's XP or join time, and handle. */
export type DirectoryCursor = { sort: "xp"; xp: number; handle: string } | { sort: "newest"; at: string; handle: string };

export function encodeDirectoryCursor(cursor: DirectoryCursor): string {
  const value = cursor.sort === "xp" ? ["x", cursor.xp, cursor.handle] : ["n", cursor.at, cursor.handle];
  return Buffer.from(JSON.stringify(value)).toString("base64url");
}

/** The directory cursor, or null when the text is not one. */
export function decodeDirectoryCursor(raw: string): DirectoryCursor | null {
  const value = cursorJson(raw, 300);
  if (!Array.isArray(value) || value.length !== 3 || typeof value[2] !== "string" || !isProfileHandle(value[2])) return null;
  const [kind, key, handle] = value as [unknown, unknown, string];
  if (kind === "x" && typeof key === "number" && Number.isInteger(key) && key >= 0 && key <= MAX_ID) return { sort: "xp", xp: key, handle };
  if (kind === "n" && isInstant(key)) return { sort: "newest", at: key, handle };
  return null;
}

/** Reply cursors are reply ids; null when the text is not one. */
export function decodeIdCursor(raw: string): number | null {
  return parseId(raw);
}

export type PageRequest<C> = { kind: "first" } | { kind: "last" } | { kind: "after"; cursor: C } | { kind: "before"; cursor: C };

/** Which page the query asks for; a refusal (400) when it asks for something that is not a page. */
export function pageRequest<C>(params: URLSearchParams, decode: (raw: string) => C | null): PageRequestOutcome<C> {
  const after = params.get("after");
  const before = params.get("before");
  const page = params.get("page");
  if (after !== null && before !== null) return refused;
  if (after !== null || before !== null) {
    const cursor = decode((after ?? before)!);
    if (cursor === null) return refused;
    return { ok: true, value: after !== null ? { kind: "after", cursor } : { kind: "before", cursor } };
  }
  if (page === "last") return { ok: true, value: { kind: "last" } };
  if (page !== null && page !== "first") return refused;
  return { ok: true, value: { kind: "first" } };
}

/** Whether a page request walks the list in its own order (first page, then "after") or backwards. */
export function walksForward(request: PageRequest<unknown>) {
  return request.kind === "first" || request.kind === "after";
}

/**
 * Cuts the rows a keyset query returned (limit + 1, in walking order) into a page in the list's
 * own order, and says whether pages exist before and after it.
 */
export function slicePage<R>(rows: R[], limit: number, request: PageRequest<unknown>) {
  const forward = walksForward(request);
  const more = rows.length > limit;
  const page = rows.slice(0, limit);
  if (!forward) page.reverse();
  return {
    rows: page,
    hasPrevious: request.kind === "first" ? false : forward ? true : more,
    hasNext: request.kind === "last" ? false : forward ? more : true,
  };
}

/**
 * One page of a list ordered by (time, id), newest first, by keyset: the rows below or above the
 * cursor, one extra to say whether there is more. The cursor is a row comparison, not
 * `a < x OR (a = x AND id < y)`: both engines turn it into one index range on the list's index,
 * read forwards or backwards, where the OR made PostgreSQL filter row by row (ADR 0028).
 */
export async function activityPage<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  [atColumn, idColumn]: [StringReference<DB, TB>, StringReference<DB, TB>],
  request: PageRequest<ActivityCursor>,
  limit: number,
) {
  if (request.kind === "after" || request.kind === "before") {
    const { at, id } = request.cursor;
    const op = sql.raw(request.kind === "after" ? "<" : ">");
    // What eb.refTuple(...) op eb.tuple(...) writes, which Kysely cannot type over a generic table.
    query = query.where(sql<boolean>`(${sql.ref(atColumn)}, ${sql.ref(idColumn)}) ${op} (${at}, ${id})`);
  }
  const direction = walksForward(request) ? "desc" : "asc";
  const rows = await query
    .orderBy(atColumn, direction)
    .orderBy(idColumn, direction)
    .limit(limit + 1)
    .execute();
  const page = slicePage(rows, limit, request);
  return { rows: page.rows, hasNewer: page.hasPrevious, hasOlder: page.hasNext };
}
