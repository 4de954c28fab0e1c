import MarkdownIt from "markdown-it";
import { describe, expect, it } from "vitest";
import { markdownParser, renderMarkdown } from "./markdown";

/** How many inline tokens markdown-it tried to skip while rendering: its unit of work on brackets. */
function inlineSteps(source: string) {
  const inline = markdownParser.inline;
  const skipToken = inline.skipToken;
  let steps = 0;
  inline.skipToken = function (state) {
    steps += 1;
    return skipToken.call(this, state);
  };
  try {
    renderMarkdown(source);
  } finally {
    inline.skipToken = skipToken;
  }
  return steps;
}

describe("renderMarkdown", () => {
  it("renders Markdown", () => {
    expect(renderMarkdown("**bold**")).toContain("<strong>bold</strong>");
  });
  it("shows raw HTML as text, so script in a post is inert", () => {
    const html = renderMarkdown('<script>alert("x")</script><img src=x onerror=alert(1)>');
    expect(html).not.toContain("<script");
    expect(html).not.toContain("<img");
    expect(html).toContain("&lt;script&gt;");
  });
  it("drops javascript: links", () => {
    expect(renderMarkdown("[click](javascript:alert(1))")).not.toContain('href="javascript:');
  });
  it("marks member links nofollow ugc noopener noreferrer", () => {
    expect(renderMarkdown("[site](https://example.org)")).toContain('rel="nofollow ugc noopener noreferrer"');
  });

  // With the default nesting of 100, `![` × 10,000 took 4,000,000 steps (~100 ms); bounded, 800,000.
  for (const [name, source] of [
    ["![", "![".repeat(10_000)],
    ["[", "[".repeat(20_000)],
    ["[x][", "[x][".repeat(5_000)],
  ] as const) {
    it(`renders 20,000 characters of ${JSON.stringify(name)} in at most 50 steps per character`, () => {
      expect(inlineSteps(source)).toBeLessThanOrEqual(50 * source.length);
      expect(renderMarkdown(source).startsWith(`<p>${name}`)).toBe(true);
    });
  }

  it("renders ordinary posts exactly as markdown-it's default nesting does", () => {
    const reference = new MarkdownIt({ html: false, linkify: true, typographer: true, breaks: false });
    const posts = [
      'I sit **ten minutes** a day. Some days my *mind* races. See [my notes](https://example.org/n "Notes").',
      "# A heading\n\n> A quote\n> > nested once\n\n- one\n  - two\n    - three\n\n1. first\n2. second\n\n```\ncode\n```",
      "![an image](/a.png) and [a [bracketed] label](https://example.org) and [ref][r] and https://example.org/linkified\n\n[r]: https://example.org/ref",
      '***bold italic*** ~~struck~~ `code` "quotes" -- dashes... (c)',
      `${"> ".repeat(12)}twelve quotes deep`,
      // A list level takes two nesting levels (list, item): eight render in full under a bound of 20.
      `${Array.from({ length: 8 }, (_, i) => `${"  ".repeat(i)}- level ${i}`).join("\n")}`,
    ];
    const withoutRel = (html: string) => html.replaceAll(' rel="nofollow ugc noopener noreferrer"', "");
    for (const post of posts) expect(withoutRel(renderMarkdown(post)), post).toBe(reference.render(post));
  });
});
