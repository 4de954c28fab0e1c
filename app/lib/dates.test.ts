import { describe, expect, it } from "vitest";
import { formatDate } from "./dates";

const intl = new Intl.DateTimeFormat("en-US", { year: "numeric", month: "short", day: "numeric", timeZone: "UTC" });

describe("formatDate", () => {
  it("writes what Intl's en-US medium date writes in UTC, for every day of several years and both input kinds", () => {
    for (let t = Date.UTC(1999, 11, 25); t < Date.UTC(2031, 0, 3); t += 86_400_000 - 3_600_000 * 7) {
      const at = new Date(t);
      expect(formatDate(at)).toBe(intl.format(at));
      expect(formatDate(at.toISOString())).toBe(intl.format(at));
    }
  });

  it("takes the UTC day, not the machine's", () => {
    expect(formatDate("2026-11-22T23:59:59.999Z")).toBe("Nov 22, 2026");
    expect(formatDate("2026-11-23T00:00:00.000Z")).toBe("Nov 23, 2026");
  });
});
