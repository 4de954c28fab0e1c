import { describe, expect, it } from "vitest";
import { addDays, formatDay } from "./calendar-days";

const intl = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", year: "numeric", timeZone: "UTC" });

describe("formatDay", () => {
  it("writes a calendar day as Intl's en-US short month, day and year, for every day of several years", () => {
    for (let day = "2023-12-25"; day <= "2029-01-05"; day = addDays(day, 1)) {
      expect(formatDay(day)).toBe(intl.format(new Date(`${day}T00:00:00Z`)));
    }
    expect(formatDay("2026-11-22")).toBe("Nov 22, 2026");
  });
});
