import { describe, expect, it } from "vitest";
import { foldLine, LINE_OCTETS, refoldCalendar } from "./calendar-lines";

const octets = (line: string) => Buffer.byteLength(line, "utf8");
const unfold = (text: string) => text.replace(/\r\n /g, "");

describe("foldLine (RFC 5545 §3.1)", () => {
  it("leaves a line of 75 octets alone and folds the 76th octet onto a line that starts with a space", () => {
    expect(foldLine("A".repeat(75))).toBe("A".repeat(75));
    expect(foldLine("A".repeat(76))).toBe(`${"A".repeat(75)}\r\n A`);
    // The space counts: continuation lines carry 74 octets of the line.
    expect(
      foldLine("A".repeat(75 + 74 + 1))
        .split("\r\n")
        .map(octets),
    ).toEqual([75, 75, 2]);
  });

  it("folds non-ASCII text by octets and never inside a character", () => {
    for (const text of [
      "SUMMARY:" + "ü".repeat(60),
      "DESCRIPTION:" + "日本語のテキスト".repeat(12),
      "LOCATION:" + "🧘‍♀️ Stille ".repeat(15),
      "X:" + "a" + "😀".repeat(40),
    ]) {
      const folded = foldLine(text);
      const lines = folded.split("\r\n");
      for (const line of lines) expect(octets(line)).toBeLessThanOrEqual(LINE_OCTETS);
      for (const line of lines.slice(1)) expect(line.startsWith(" ")).toBe(true);
      // No lone surrogate anywhere: every piece is well-formed UTF-16, so nothing was split.
      for (const line of lines) expect(line.isWellFormed()).toBe(true);
      expect(unfold(folded)).toBe(text);
    }
    // 73 octets, then a 3-octet character that would make 76: it moves whole to the next line.
    expect(foldLine("X:" + "a".repeat(71) + "日")).toBe(`X:${"a".repeat(71)}\r\n 日`);
  });
});

describe("refoldCalendar", () => {
  it("undoes the library's folds (CRLF and a tab) and folds each line again by octets", () => {
    const input = ["BEGIN:VCALENDAR", `SUMMARY:${"é".repeat(66)}\r\n\t${"é".repeat(20)}`, "END:VCALENDAR", ""].join("\r\n");
    const out = refoldCalendar(input);
    expect(out.endsWith("END:VCALENDAR\r\n")).toBe(true);
    for (const line of out.split("\r\n")) expect(octets(line)).toBeLessThanOrEqual(LINE_OCTETS);
    expect(unfold(out)).toBe(["BEGIN:VCALENDAR", `SUMMARY:${"é".repeat(86)}`, "END:VCALENDAR", ""].join("\r\n"));
  });
});
