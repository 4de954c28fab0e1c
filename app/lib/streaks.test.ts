import { describe, expect, it } from "vitest";
import { addDays, daysBetween, localDay } from "./calendar-days";
import { streaksOf } from "./streaks";

const today = "2026-03-20";
/** Days counted back from today: 0 is today, 1 yesterday. */
const ago = (...offsets: number[]) => offsets.map((n) => addDays(today, -n));

describe("streaks: consecutive days, one rest day in any seven", () => {
  it("counts consecutive check-in days", () => {
    expect(streaksOf(ago(0, 1, 2, 3), today)).toEqual({ current: 4, best: 4 });
  });
  it("today not yet checked in does not break the current streak", () => {
    expect(streaksOf(ago(1, 2, 3), today).current).toBe(3);
  });
  it("one missed day is a rest day that keeps the streak", () => {
    expect(streaksOf(ago(0, 1, 3, 4), today).current).toBe(4);
  });
  it("yesterday missed and today not yet: the rest day still holds", () => {
    expect(streaksOf(ago(2, 3, 4), today).current).toBe(3);
  });
  it("a second missed day within seven days breaks the streak", () => {
    // 3 days ago is the rest day of the run 5-4-(3)-2; 1 day ago is a second miss within seven days
    expect(streaksOf(ago(0, 2, 4, 5), today)).toEqual({ current: 2, best: 3 });
  });
  it("two consecutive missed days break it", () => {
    expect(streaksOf(ago(0, 1, 4, 5, 6), today)).toEqual({ current: 2, best: 3 });
  });
  it("missed days seven or more apart are each forgiven", () => {
    // misses at 3 and 10 days ago: 7 days apart, each in its own window
    expect(streaksOf(ago(0, 1, 2, 4, 5, 6, 7, 8, 9, 11), today).current).toBe(10);
    // misses at 3 and 9 days ago: 6 apart, within one window, so the streak is days 0 to 8
    expect(streaksOf(ago(0, 1, 2, 4, 5, 6, 7, 8, 10), today).current).toBe(8);
  });
  it("a streak that ended long ago is the best, not the current", () => {
    expect(streaksOf(ago(20, 21, 22, 23, 24), today)).toEqual({ current: 0, best: 5 });
  });
  it("no check-ins, no streak", () => {
    expect(streaksOf([], today)).toEqual({ current: 0, best: 0 });
  });
});

describe("calendar days in a member's zone", () => {
  it("the same instant is a different day at +14 and -11", () => {
    const at = new Date("2026-03-20T10:30:00Z");
    expect(localDay(at, "Pacific/Kiritimati")).toBe("2026-03-21");
    expect(localDay(at, "Pacific/Pago_Pago")).toBe("2026-03-19");
    expect(localDay(at, "UTC")).toBe("2026-03-20");
    expect(localDay(at, "Not/AZone")).toBe("2026-03-20");
  });
  it("adds and counts days across months and leap days", () => {
    expect(addDays("2028-02-28", 1)).toBe("2028-02-29");
    expect(addDays("2026-12-31", 1)).toBe("2027-01-01");
    expect(daysBetween("2026-03-01", "2026-03-31")).toBe(30);
  });
});
