import { describe, expect, it } from "vitest";
import { isId, MAX_ID, parseId } from "./params";

describe("parseId", () => {
  it("reads ids from 1 to the 32-bit integer columns' largest value", () => {
    expect(parseId("1")).toBe(1);
    expect(parseId("42")).toBe(42);
    expect(parseId("2147483647")).toBe(MAX_ID);
  });
  it("refuses anything else, including numbers past 2^31 - 1", () => {
    for (const value of [
      "2147483648",
      "9999999999",
      "99999999999999999999",
      "0",
      "-1",
      "007",
      "1e3",
      "12abc",
      " 1",
      "1.0",
      "",
      undefined,
      null,
      7,
      new File([], "x"),
    ]) {
      expect(parseId(value), String(value)).toBeNull();
    }
  });
  it("checks decoded numbers against the same range", () => {
    expect(isId(1)).toBe(true);
    expect(isId(MAX_ID)).toBe(true);
    for (const value of [0, -1, 1.5, MAX_ID + 1, Number.NaN, "1"]) expect(isId(value), String(value)).toBe(false);
  });
});
