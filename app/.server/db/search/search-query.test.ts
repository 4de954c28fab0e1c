import { describe, expect, it } from "vitest";
import { aboutTerms, fts5Query, parseSearchQuery, tsQuery, wantedWords } from "./search-query";

describe("parseSearchQuery", () => {
  it("reads words, phrases, prefixes and excluded words", () => {
    expect(parseSearchQuery('Cold  "morning run"  medit* -tired')).toEqual([
      { words: ["cold"], prefix: false, negated: false },
      { words: ["morning", "run"], prefix: false, negated: false },
      { words: ["medit"], prefix: true, negated: false },
      { words: ["tired"], prefix: false, negated: true },
    ]);
  });

  it("splits a word as the index does, into a phrase of its parts", () => {
    expect(parseSearchQuery("self-discipline")).toEqual([{ words: ["self", "discipline"], prefix: false, negated: false }]);
    expect(parseSearchQuery("don't")).toEqual([{ words: ["don", "t"], prefix: false, negated: false }]);
  });

  it("takes syntax as text and drops what holds no word", () => {
    expect(parseSearchQuery("NEAR(a b)")).toEqual([
      { words: ["near", "a"], prefix: false, negated: false },
      { words: ["b"], prefix: false, negated: false },
    ]);
    for (const nothing of ["*", "-", "- -", '"', "((", "\u0000", "🙂", ":", ""]) expect(parseSearchQuery(nothing)).toEqual([]);
    // An unclosed quote runs to the end.
    expect(parseSearchQuery('"cold water')).toEqual([{ words: ["cold", "water"], prefix: false, negated: false }]);
  });

  it("finds nothing from excluded words alone, and keeps the wanted ones first", () => {
    expect(parseSearchQuery("-cold -water")).toEqual([]);
    expect(parseSearchQuery("-cold water").map((t) => t.negated)).toEqual([false, true]);
    expect(wantedWords(parseSearchQuery('-cold water "deep sea"'))).toEqual(["water", "deep", "sea"]);
  });

  it("reads words of every script and bounds the terms", () => {
    expect(parseSearchQuery("東京 Москва café").map((t) => t.words[0])).toEqual(["東京", "москва", "café"]);
    expect(parseSearchQuery("a ".repeat(100))).toHaveLength(12);
  });
});

describe("compiled queries", () => {
  const terms = parseSearchQuery('cold "morning run" medit* -tired');

  it("quotes every term for FTS5", () => {
    expect(fts5Query(terms)).toBe('("cold" AND "morning run" AND "medit"*) NOT "tired"');
  });

  it("quotes every word for to_tsquery", () => {
    expect(tsQuery(terms)).toBe("'cold' & ('morning' <-> 'run') & 'medit':* & !'tired'");
  });

  it("joins the wanted terms with OR for related posts, from a title's own words", () => {
    const about = aboutTerms("How do I start the glacier swimming, and how?");
    expect(about.map((t) => t.words[0])).toEqual(["start", "glacier", "swimming"]);
    expect(fts5Query(about, "any")).toBe('("start" OR "glacier" OR "swimming")');
    expect(tsQuery(about, "any")).toBe("('start' | 'glacier' | 'swimming')");
    expect(aboutTerms("A to Z")).toEqual([]);
  });
});
