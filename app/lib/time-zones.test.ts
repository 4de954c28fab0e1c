import { describe, expect, it } from "vitest";
import { canonicalTimeZone, formatInZone, utcToZoned, zonedToUtc } from "./time-zones";

describe("time zones", () => {
  it("accepts real IANA zones and canonicalises their spelling", () => {
    expect(canonicalTimeZone("Europe/Berlin")).toBe("Europe/Berlin");
    expect(canonicalTimeZone("america/new_york")).toBe("America/New_York");
    expect(canonicalTimeZone("UTC")).toBe("UTC");
  });

  it("refuses zones that do not exist, offsets and junk", () => {
    for (const name of ["Mars/Olympus_Mons", "Europe/Atlantis", "+01:00", "", "Europe/Berlin\nX", "../../etc/passwd", "A".repeat(80)]) {
      expect(canonicalTimeZone(name), name).toBeNull();
    }
  });

  it("turns a wall-clock time in a zone into UTC, on both sides of a clock change", () => {
    expect(zonedToUtc("2026-12-01T18:00", "Europe/Berlin")?.toISOString()).toBe("2026-12-01T17:00:00.000Z");
    expect(zonedToUtc("2026-07-01T18:00", "Europe/Berlin")?.toISOString()).toBe("2026-07-01T16:00:00.000Z");
    expect(zonedToUtc("2026-07-01T09:30", "America/New_York")?.toISOString()).toBe("2026-07-01T13:30:00.000Z");
    expect(zonedToUtc("2026-12-01T18:00", "UTC")?.toISOString()).toBe("2026-12-01T18:00:00.000Z");
    // 02:30 on 29 March 2026 does not exist in Berlin; it moves forward by the gap.
    expect(zonedToUtc("2026-03-29T02:30", "Europe/Berlin")?.toISOString()).toBe("2026-03-29T01:30:00.000Z");
  });

  it("refuses impossible or malformed dates", () => {
    for (const local of ["2026-02-30T10:00", "2026-13-01T10:00", "2026-12-01T24:00", "2026-12-01 18:00", "tomorrow", ""]) {
      expect(zonedToUtc(local, "UTC"), local).toBeNull();
    }
  });

  it("refuses a time whose instant falls past the year 9999 in UTC, which PostgreSQL cannot store", () => {
    expect(zonedToUtc("9999-12-31T20:00", "America/New_York")).toBeNull();
    expect(zonedToUtc("9999-12-31T18:00", "America/New_York")?.toISOString()).toBe("9999-12-31T23:00:00.000Z");
    expect(zonedToUtc("9999-12-31T23:59", "UTC")?.toISOString()).toBe("9999-12-31T23:59:00.000Z");
  });

  it("round-trips through the wall clock and formats with the zone's name", () => {
    const at = new Date("2026-12-01T17:00:00Z");
    expect(utcToZoned(at, "Europe/Berlin")).toBe("2026-12-01T18:00");
    expect(formatInZone(at, "Europe/Berlin")).toMatch(/Tue, 1 Dec 2026, 18:00 (CET|GMT\+1)/);
    expect(formatInZone(at, "UTC")).toBe("Tue, 1 Dec 2026, 17:00 UTC");
  });
});
