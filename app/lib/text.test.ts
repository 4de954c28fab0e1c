import { describe, expect, it } from "vitest";
import { excerptOf } from "./text";

/**
 * The regexes excerptOf used before ADR 0012, kept here only as an oracle on short inputs (where
 * their backtracking is harmless): the linear scanner must say exactly what they said.
 */
function regexExcerpt(markdown: string, max = 160): string {
  const plain = markdown
    .replace(/```[\s\S]*?```/g, " ")
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/[*_`~#>]+/g, "")
    .replace(/\s+/g, " ")
    .trim();
  if (plain.length <= max) return plain;
  const cut = plain.slice(0, max);
  const space = cut.lastIndexOf(" ");
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** A small deterministic generator (mulberry32), so a failure can be replayed. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe("excerptOf", () => {
  it("reduces ordinary Markdown to its text", () => {
    expect(excerptOf("I sit **ten minutes** a day. See [my notes](https://example.org/n) and ![the view](/v.png).")).toBe(
      "I sit ten minutes a day. See my notes and the view.",
    );
    expect(excerptOf("# Title\n\n> quoted\n\n```js\nconsole.log(1)\n```\n\n_done_ `x`")).toBe("Title quoted done x");
    expect(excerptOf("[![badge](/b.svg)](https://example.org)")).toBe("badge");
    // A picture's size in its alt text (issue 32) is no words.
    expect(excerptOf("Rows today: ![my garden|1600x1200](/media/x-display.webp) done.")).toBe("Rows today: my garden done.");
  });

  it("cuts at a word boundary with an ellipsis", () => {
    const excerpt = excerptOf("word ".repeat(100));
    expect(excerpt.length).toBeLessThanOrEqual(161);
    expect(excerpt).toMatch(/^(word )+word…$/);
  });

  it("says exactly what the old regexes said, on 5,000 random short posts of brackets, marks and fences", () => {
    const next = random(7);
    const pieces = ["![", "[", "]", "(", ")", "](", "```", "`", "*", "_", "#", ">", "~", " ", "\n", "a", "bc", "!", "http://x"];
    for (let i = 0; i < 5000; i++) {
      const length = Math.floor(next() * 40);
      const source = Array.from({ length }, () => pieces[Math.floor(next() * pieces.length)]).join("");
      expect(excerptOf(source, 30), JSON.stringify(source)).toBe(regexExcerpt(source, 30));
    }
  });

  // The old regexes rescanned the rest of the text from every unclosed `[`: 200,000 characters of
  // `![` took about half a minute. A linear scan takes milliseconds; the bound leaves a wide margin
  // for a busy machine and still fails any quadratic version by far.
  const hostile: [string, string, string][] = [
    ["![", "![".repeat(100_000), "!["],
    ["[", "[".repeat(200_000), "["],
    ["[a](", "[a](".repeat(50_000), "[a]("],
    ["![a](", "![a](".repeat(40_000), "![a]("],
    ["[](", "[](".repeat(66_000), "[]("],
    ["```", "```a".repeat(50_000), "a"],
  ];
  for (const [name, source, start] of hostile) {
    it(`reads ${source.length.toLocaleString("en")} characters of ${JSON.stringify(name)} in well under a second`, () => {
      const began = performance.now();
      const excerpt = excerptOf(source);
      expect(performance.now() - began).toBeLessThan(1000);
      expect(excerpt.startsWith(start)).toBe(true);
      expect(excerpt.length).toBeLessThanOrEqual(161);
    });
  }
});
