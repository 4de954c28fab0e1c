import { describe, expect, it } from "vitest";
import { MARK_END, MARK_START, markedPieces } from "./search";

describe("markedPieces", () => {
  it("splits text at the marks, and keeps markup as text", () => {
    expect(markedPieces(`a ${MARK_START}<b>cold</b>${MARK_END} swim ${MARK_START}x${MARK_END}`)).toEqual([
      ["a ", false],
      ["<b>cold</b>", true],
      [" swim ", false],
      ["x", true],
    ]);
    expect(markedPieces("")).toEqual([]);
    expect(markedPieces("plain")).toEqual([["plain", false]]);
  });
});
