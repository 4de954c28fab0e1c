import { describe, expect, it } from "vitest";
import { decodeActivityCursor, decodeIdCursor, encodeActivityCursor, pageRequest, slicePage } from "./pagination";

const status = (fn: () => unknown) => {
  try {
    fn();
    return 200;
  } catch (error) {
    return (error as { init?: { status?: number } }).init?.status;
  }
};

describe("cursors", () => {
  it("round-trips an activity cursor", () => {
    const cursor = { at: "2026-11-21T10:00:00.000Z", id: 42 };
    expect(decodeActivityCursor(encodeActivityCursor(cursor))).toEqual(cursor);
  });
  it("answers 400 to a tampered cursor", () => {
    for (const raw of ["x", "!!!", Buffer.from('["not a date",1]').toString("base64url"), Buffer.from('["2026-11-21T10:00:00.000Z",-1]').toString("base64url"), Buffer.from("{}").toString("base64url"), "a".repeat(300)]) {
      expect(status(() => decodeActivityCursor(raw)), raw).toBe(400);
    }
    expect(status(() => decodeIdCursor("12abc"))).toBe(400);
    expect(status(() => decodeIdCursor("0"))).toBe(400);
  });
  it("answers 400 to ids past the 32-bit columns and to dates that are not on the calendar", () => {
    expect(status(() => decodeIdCursor("2147483648"))).toBe(400);
    expect(decodeIdCursor("2147483647")).toBe(2147483647);
    const at = "2026-11-21T10:00:00.000Z";
    expect(status(() => decodeActivityCursor(encodeActivityCursor({ at, id: 2147483648 })))).toBe(400);
    for (const bad of ["2026-02-30T10:00:00.000Z", "2026-02-29T10:00:00Z", "2026-04-31T10:00:00Z", "2026-13-01T10:00:00Z", "2026-11-21T24:00:00Z", "2026-11-21T23:60:00Z", "2026-11-21T23:59:60Z"]) {
      expect(status(() => decodeActivityCursor(encodeActivityCursor({ at: bad, id: 1 }))), bad).toBe(400);
    }
    for (const good of ["2024-02-29T23:59:59Z", "2026-11-21T10:00:00.123456Z"]) {
      expect(decodeActivityCursor(encodeActivityCursor({ at: good, id: 1 }))).toEqual({ at: good, id: 1 });
    }
  });
  it("reads the page request from the query", () => {
    expect(pageRequest(new URLSearchParams(""), decodeIdCursor)).toEqual({ kind: "first" });
    expect(pageRequest(new URLSearchParams("page=last"), decodeIdCursor)).toEqual({ kind: "last" });
    expect(pageRequest(new URLSearchParams("after=7"), decodeIdCursor)).toEqual({ kind: "after", cursor: 7 });
    expect(status(() => pageRequest(new URLSearchParams("after=7&before=9"), decodeIdCursor))).toBe(400);
    expect(status(() => pageRequest(new URLSearchParams("page=3"), decodeIdCursor))).toBe(400);
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
