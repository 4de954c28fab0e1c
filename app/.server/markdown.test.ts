import MarkdownIt from "markdown-it";
import { describe, expect, it } from "vitest";
import { linksAndImages, markdownParser, mentionCandidates, renderMarkdown } from "./markdown";

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
      "[a [bracketed] label](https://example.org) and [ref][r] and https://example.org/linkified\n\n[r]: https://example.org/ref",
      '***bold italic*** ~~struck~~ `code` "quotes" -- dashes... (c)',
      `${"> ".repeat(12)}twelve quotes deep`,
      // A list level takes two nesting levels (list, item): eight render in full under a bound of 20.
      `${Array.from({ length: 8 }, (_, i) => `${"  ".repeat(i)}- level ${i}`).join("\n")}`,
    ];
    const withoutRel = (html: string) => html.replaceAll(' rel="nofollow ugc noopener noreferrer"', "");
    for (const post of posts) expect(withoutRel(renderMarkdown(post)), post).toBe(reference.render(post));
  });
});

describe("renderMarkdown's images (issue 32)", () => {
  const own = "/media/0123456789abcdef0123456789abcdef-display.webp";
  it("gives an uploaded picture its width and height from the alt text, and loads it lazily", () => {
    expect(renderMarkdown(`![My garden|1600x1200](${own})`)).toBe(
      `<p><img src="${own}" alt="My garden" width="1600" height="1200" loading="lazy" decoding="async"></p>\n`,
    );
  });
  it("leaves out a size that no image has, and escapes the alt text and title", () => {
    expect(renderMarkdown(`![a|0x10](${own}) ![b|99999x2](${own}) ![<i>"q"|3x4](${own} "t<>")`)).toBe(
      `<p><img src="${own}" alt="a" loading="lazy" decoding="async"> <img src="${own}" alt="b" loading="lazy" decoding="async"> ` +
        `<img src="${own}" alt="&lt;i&gt;&quot;q&quot;" width="3" height="4" title="t&lt;&gt;" loading="lazy" decoding="async"></p>\n`,
    );
  });
  it("makes an image from another site, or a path that is no stored file, a link to it (the page could not load it)", () => {
    expect(renderMarkdown("![tracker](https://example.org/t.png)")).toBe(
      '<p><a href="https://example.org/t.png" rel="nofollow ugc noopener noreferrer">tracker</a></p>\n',
    );
    expect(renderMarkdown("![](/media/../../etc/passwd)")).toBe(
      '<p><a href="/media/../../etc/passwd" rel="nofollow ugc noopener noreferrer">/media/../../etc/passwd</a></p>\n',
    );
    // markdown-it refuses the address, and the Markdown stays text.
    expect(renderMarkdown("![x](javascript:alert(1))")).not.toContain("href");
  });
  it("counts stored pictures as images and other sites' as links", () => {
    expect(linksAndImages(renderMarkdown(`![a](${own}) ![b](https://example.org/b.png)`))).toEqual({ links: 1, images: 1 });
  });
});

describe("mentionCandidates", () => {
  it("lists the handles in the order they are first named, each once, in lower case", () => {
    expect(mentionCandidates("@Amara and @nora, then @NORA and @amara again, and @Nora-Newcomer")).toEqual(["amara", "nora", "nora-newcomer"]);
  });

  it("finds nothing in a body without mentions", () => {
    expect(mentionCandidates("No one named here.")).toEqual([]);
    expect(mentionCandidates("")).toEqual([]);
  });

  it("finds mentions in headings, quotes, lists, emphasis and tables", () => {
    const body = "# For @heading\n\n> @quoted\n\n- @listed\n\n**@bold** and _@slanted_\n\n| who |\n| --- |\n| @cell |\n\nline\n@after-break";
    expect(mentionCandidates(body)).toEqual(["heading", "quoted", "listed", "bold", "slanted", "cell", "after-break"]);
  });

  for (const [where, body] of [
    ["a code span", "Run `@nora` now"],
    ["a fenced block", "```\n@nora\n```"],
    ["an indented block", "Text\n\n    @nora\n"],
    ["a link's text", "[ask @nora](https://example.org)"],
    ["a link's URL", "[profile](https://example.org/@nora)"],
    ["a linkified URL", "See https://example.org/@nora today"],
    ["an autolink", "See <https://example.org/@nora>"],
    ["an e-mail address", "Write to nora@example.com"],
    ["an autolinked e-mail address", "Write to <nora@example.com>"],
    ["an image's alt text", "![@nora at the lake](/lake.png)"],
    ["an escaped @", "Not \\@nora"],
    ["an entity @", "Not &commat;nora or &#64;nora, though @ is written"],
  ] as const) {
    it(`finds no mention in ${where}`, () => {
      expect(mentionCandidates(body)).toEqual([]);
    });
  }

  it("finds mentions next to punctuation", () => {
    const body = '(@paren) @comma, @stop. @bang! @ask? @colon: @quote\'s "@quoted" @dash- [@bracket] @escaped\\!';
    expect(mentionCandidates(body)).toEqual(["paren", "comma", "stop", "bang", "ask", "colon", "quote", "quoted", "dash", "bracket", "escaped"]);
  });

  it("finds no mention right after a letter, digit or part of an address or path", () => {
    expect(mentionCandidates("x@nora 1@nora é@nora _@nora /@nora .@nora -@nora @@nora")).toEqual([]);
  });

  it("finds no mention that runs on into other characters", () => {
    expect(mentionCandidates("@nora_x @noraé @nora@example @example.com @scope/package @nora\\-x")).toEqual([]);
  });

  it("takes only what a handle can be: at most 80 characters, never a deleted account's", () => {
    const longest = `a${"b".repeat(79)}`;
    expect(mentionCandidates(`@${longest} @${longest}c @deleted-3f2a @-dash`)).toEqual([longest]);
  });

  it("finds all of 200 mentions", () => {
    const handles = Array.from({ length: 200 }, (_, i) => `member-${i + 1}`);
    expect(mentionCandidates(handles.map((h) => `@${h}`).join(" "))).toEqual(handles);
    expect(mentionCandidates(handles.map((h) => `Thanks, @${h}!`).join("\n\n"))).toEqual(handles);
  });
});

describe("renderMarkdown with mentions", () => {
  const mentions = new Set(["nora", "amara", "nora-newcomer"]);

  it("links each mention of a known handle to the profile, as written and without rel", () => {
    expect(renderMarkdown("Thanks @Nora and @amara, not @stranger.", { mentions })).toBe(
      '<p>Thanks <a href="/members/nora" class="mention">@Nora</a> and <a href="/members/amara" class="mention">@amara</a>, not @stranger.</p>\n',
    );
  });

  it("links a handle with hyphens, and leaves a trailing hyphen as text", () => {
    expect(renderMarkdown("@Nora-Newcomer- hi", { mentions })).toBe('<p><a href="/members/nora-newcomer" class="mention">@Nora-Newcomer</a>- hi</p>\n');
  });

  it("links nothing in code, links, addresses, alt text or an escaped @", () => {
    const body = "`@nora` [@nora](https://example.org/@nora) https://example.org/@nora nora@example.com ![@nora](/a.png) \\@nora &commat;nora";
    expect(renderMarkdown(body, { mentions })).not.toContain('class="mention"');
    expect(renderMarkdown(body, { mentions })).toBe(renderMarkdown(body));
  });

  it("links all of 200 mentions", () => {
    const handles = Array.from({ length: 200 }, (_, i) => `member-${i + 1}`);
    const html = renderMarkdown(handles.map((h) => `@${h}`).join(" "), { mentions: new Set(handles) });
    expect(html.match(/class="mention"/g)).toHaveLength(200);
    expect(html).toContain('<a href="/members/member-200" class="mention">@member-200</a></p>');
  });

  it("escapes the text around a mention and links only what is a handle's syntax", () => {
    const html = renderMarkdown('<b>@nora</b> @nora"><script>', { mentions: new Set([...mentions, 'nora"><script>']) });
    expect(html).toBe(
      '<p>&lt;b&gt;<a href="/members/nora" class="mention">@nora</a>&lt;/b&gt; <a href="/members/nora" class="mention">@nora</a>&quot;&gt;&lt;script&gt;</p>\n',
    );
  });

  it("keeps the rel of the member's own links beside a mention", () => {
    expect(renderMarkdown("@nora [site](https://example.org)", { mentions })).toBe(
      '<p><a href="/members/nora" class="mention">@nora</a> <a href="https://example.org" rel="nofollow ugc noopener noreferrer">site</a></p>\n',
    );
  });

  // Captured from renderMarkdown before mentions existed (commit 392aa75), for bodies full of @.
  const before: Array<[string, string]> = [
    [
      "Thanks @nora, see nora@example.com and `@code`.",
      '<p>Thanks @nora, see <a href="mailto:nora@example.com" rel="nofollow ugc noopener noreferrer">nora@example.com</a> and <code>@code</code>.</p>\n',
    ],
    [
      '# Hi @Nora-Newcomer!\n\n> @amara said (c) "quoted" -- fine...\n\n- [@link](https://example.org/@nora)\n- https://example.org/@nora\n\n```\n@fenced\n```\n\n    @indented\n',
      '<h1>Hi @Nora-Newcomer!</h1>\n<blockquote>\n<p>@amara said © “quoted” – fine…</p>\n</blockquote>\n<ul>\n<li><a href="https://example.org/@nora" rel="nofollow ugc noopener noreferrer">@link</a></li>\n<li><a href="https://example.org/@nora" rel="nofollow ugc noopener noreferrer">https://example.org/@nora</a></li>\n</ul>\n<pre><code>@fenced\n</code></pre>\n<pre><code>@indented\n</code></pre>\n',
    ],
    [
      "\\@escaped &commat;entity ![@alt](/media/0123456789abcdef0123456789abcdef-display.webp) <nora@example.com> **@bold**",
      '<p>@escaped @entity <img src="/media/0123456789abcdef0123456789abcdef-display.webp" alt="@alt" loading="lazy" decoding="async"> <a href="mailto:nora@example.com" rel="nofollow ugc noopener noreferrer">nora@example.com</a> <strong>@bold</strong></p>\n',
    ],
    [
      "| a | b |\n|---|---|\n| @cell | x |\n\nline one\n@two  \n@three",
      "<table>\n<thead>\n<tr>\n<th>a</th>\n<th>b</th>\n</tr>\n</thead>\n<tbody>\n<tr>\n<td>@cell</td>\n<td>x</td>\n</tr>\n</tbody>\n</table>\n<p>line one\n@two<br>\n@three</p>\n",
    ],
  ];
  it("renders as before mentions existed without the option or with no handles", () => {
    for (const [body, html] of before) {
      expect(renderMarkdown(body), body).toBe(html);
      expect(renderMarkdown(body, {}), body).toBe(html);
      expect(renderMarkdown(body, { mentions: new Set() }), body).toBe(html);
    }
  });
});
