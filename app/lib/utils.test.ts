import { describe, expect, it } from "vitest";
import { formatCount, plural } from "./utils";

const intl = new Intl.NumberFormat("en-US");

describe("formatCount", () => {
  it("writes every count as Intl's en-US format does, small or large", () => {
    for (const n of [
      0,
      1,
      7,
      42,
      999,
      1000,
      1001,
      9999,
      10_000,
      12_345,
      100_000,
      999_999,
      1_000_000,
      1_234_567,
      Number.MAX_SAFE_INTEGER,
      2 ** 60,
      -1,
      -0,
      -999,
      -1000,
      -12_345,
      -1_000_000,
      2.5,
      999.5,
      1234.5678,
      Infinity,
      NaN,
    ]) {
      expect(formatCount(n)).toBe(intl.format(n));
    }
  });

  it("names one thing in the singular and the rest in the plural", () => {
    expect(plural(1, "Reply", "Replies")).toBe("1 Reply");
    expect(plural(0, "Reply", "Replies")).toBe("0 Replies");
    expect(plural(1200, "view")).toBe("1,200 views");
  });
});
