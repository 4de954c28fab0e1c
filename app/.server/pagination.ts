import { data } from "react-router";
import { isId, parseId } from "~/lib/params";

/**
 * Keyset pagination cursors (issue 3: a cursor, not OFFSET). A cursor is opaque to the member:
 * base64url of a small JSON array. Anything that does not decode to the expected shape is a 400,
 * never a 500 and never a silently wrong page.
 */
export interface ActivityCursor {
  at: string;
  id: number;
}

function bad(): never {
  throw data("That page link is not valid.", { status: 400 });
}

export function encodeActivityCursor(cursor: ActivityCursor): string {
  return Buffer.from(JSON.stringify([cursor.at, cursor.id])).toString("base64url");
}

export function decodeActivityCursor(raw: string): ActivityCursor {
  if (raw.length > 200 || !/^[A-Za-z0-9_-]+$/.test(raw)) bad();
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(raw, "base64url").toString("utf8"));
  } catch {
    bad();
  }
  if (!Array.isArray(value) || value.length !== 2) bad();
  const [at, id] = value as [unknown, unknown];
  if (!isInstant(at) || !isId(id)) bad();
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

/** Reply cursors are reply ids. */
export function decodeIdCursor(raw: string): number {
  return parseId(raw) ?? bad();
}

export type PageRequest<C> = { kind: "first" } | { kind: "last" } | { kind: "after"; cursor: C } | { kind: "before"; cursor: C };

export function pageRequest<C>(params: URLSearchParams, decode: (raw: string) => C): PageRequest<C> {
  const after = params.get("after");
  const before = params.get("before");
  if (after !== null && before !== null) bad();
  if (after !== null) return { kind: "after", cursor: decode(after) };
  if (before !== null) return { kind: "before", cursor: decode(before) };
  const page = params.get("page");
  if (page === "last") return { kind: "last" };
  if (page !== null && page !== "first") bad();
  return { kind: "first" };
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
