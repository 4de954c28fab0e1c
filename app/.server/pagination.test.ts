import { describe, expect, it } from "vitest";
import {
  decodeActivityCursor,
  decodeDirectoryCursor,
  decodeIdCursor,
  decodeSearchCursor,
  encodeActivityCursor,
  encodeDirectoryCursor,
  encodeSearchCursor,
  INVALID_PAGE_LINK,
  pageRequest,
  slicePage,
} from "./pagination";

/** A page request for `?after=<raw>`: what a route turns into a status. */
const after = (raw: string, decode: (raw: string) => unknown) => pageRequest(new URLSearchParams({ after: raw }), decode);
const refused = { ok: false, status: 400, errors: { form: INVALID_PAGE_LINK } };

describe("cursors", () => {
  it("round-trips an activity cursor", () => {
    const cursor = { at: "2026-11-21T10:00:00.000Z", id: 42 };
    expect(decodeActivityCursor(encodeActivityCursor(cursor))).toEqual(cursor);
  });
  it("refuses a tampered cursor with 400", () => {
    for (const raw of [
      "x",
      "!!!",
      Buffer.from('["not a date",1]').toString("base64url"),
      Buffer.from('["2026-11-21T10:00:00.000Z",-1]').toString("base64url"),
      Buffer.from("{}").toString("base64url"),
      "a".repeat(300),
    ]) {
      expect(decodeActivityCursor(raw), raw).toBeNull();
      expect(after(raw, decodeActivityCursor), raw).toEqual(refused);
    }
    expect(after("12abc", decodeIdCursor)).toEqual(refused);
    expect(after("0", decodeIdCursor)).toEqual(refused);
  });
  it("refuses ids past the 32-bit columns and dates that are not on the calendar with 400", () => {
    expect(after("2147483648", decodeIdCursor)).toEqual(refused);
    expect(decodeIdCursor("2147483647")).toBe(2147483647);
    const at = "2026-11-21T10:00:00.000Z";
    expect(after(encodeActivityCursor({ at, id: 2147483648 }), decodeActivityCursor)).toEqual(refused);
    for (const bad of [
      "2026-02-30T10:00:00.000Z",
      "2026-02-29T10:00:00Z",
      "2026-04-31T10:00:00Z",
      "2026-13-01T10:00:00Z",
      "2026-11-21T24:00:00Z",
      "2026-11-21T23:60:00Z",
      "2026-11-21T23:59:60Z",
    ]) {
      expect(after(encodeActivityCursor({ at: bad, id: 1 }), decodeActivityCursor), bad).toEqual(refused);
    }
    for (const good of ["2024-02-29T23:59:59Z", "2026-11-21T10:00:00.123456Z"]) {
      expect(decodeActivityCursor(encodeActivityCursor({ at: good, id: 1 }))).toEqual({ at: good, id: 1 });
    }
  });
  it("reads the page request from the query", () => {
    expect(pageRequest(new URLSearchParams(""), decodeIdCursor)).toEqual({ ok: true, value: { kind: "first" } });
    expect(pageRequest(new URLSearchParams("page=last"), decodeIdCursor)).toEqual({ ok: true, value: { kind: "last" } });
    expect(pageRequest(new URLSearchParams("after=7"), decodeIdCursor)).toEqual({ ok: true, value: { kind: "after", cursor: 7 } });
    expect(pageRequest(new URLSearchParams("before=7"), decodeIdCursor)).toEqual({ ok: true, value: { kind: "before", cursor: 7 } });
    expect(pageRequest(new URLSearchParams("after=7&before=9"), decodeIdCursor)).toEqual(refused);
    expect(pageRequest(new URLSearchParams("page=3"), decodeIdCursor)).toEqual(refused);
  });
});

describe("slicePage", () => {
  it("says what lies before and after a page, in the list's own order", () => {
    expect(slicePage([1, 2, 3], 2, { kind: "first" })).toEqual({ rows: [1, 2], hasPrevious: false, hasNext: true });
    expect(slicePage([3, 4], 2, { kind: "after", cursor: 2 })).toEqual({ rows: [3, 4], hasPrevious: true, hasNext: false });
    expect(slicePage([9, 8, 7], 2, { kind: "last" })).toEqual({ rows: [8, 9], hasPrevious: true, hasNext: false });
    expect(slicePage([2, 1], 2, { kind: "before", cursor: 3 })).toEqual({ rows: [1, 2], hasPrevious: false, hasNext: true });
  });
});

describe("search and directory cursors", () => {
  const raw = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

  it("read back what they wrote", () => {
    const hit = { kind: "hit", score: -1.25e-6, at: "2026-11-28T10:00:00.000Z", id: 42 } as const;
    expect(decodeSearchCursor(encodeSearchCursor(hit))).toEqual(hit);
    expect(decodeSearchCursor(encodeSearchCursor({ kind: "member", xp: 0, handle: "ana-2" }))).toEqual({ kind: "member", xp: 0, handle: "ana-2" });
    expect(decodeDirectoryCursor(encodeDirectoryCursor({ sort: "xp", xp: 120, handle: "bo" }))).toEqual({ sort: "xp", xp: 120, handle: "bo" });
    const newest = { sort: "newest", at: "2026-01-01T00:00:00.000Z", handle: "bo" } as const;
    expect(decodeDirectoryCursor(encodeDirectoryCursor(newest))).toEqual(newest);
  });

  it("refuse anything out of its columns' range or shape", () => {
    for (const value of [
      ["h", 1, "2026-01-01T00:00:00.000Z", 2_147_483_648],
      ["h", "1", "2026-01-01T00:00:00.000Z", 1],
      ["h", 1e12, "2026-01-01T00:00:00.000Z", 1],
      ["h", 1, "2026-02-30T00:00:00.000Z", 1],
      ["m", -1, "bo"],
      ["m", 1, "deleted-bo"],
      ["m", 1, "Bo Bo"],
      ["x", 1, "bo"],
      {},
    ]) {
      expect(decodeSearchCursor(raw(value)), JSON.stringify(value)).toBeNull();
    }
    expect(decodeSearchCursor("%%%")).toBeNull();
    expect(decodeSearchCursor("a".repeat(301))).toBeNull();
    for (const value of [
      ["x", 1.5, "bo"],
      ["x", 1, "deleted-x"],
      ["n", "yesterday", "bo"],
      ["h", 1, "bo"],
    ]) {
      expect(decodeDirectoryCursor(raw(value)), JSON.stringify(value)).toBeNull();
    }
  });
});
