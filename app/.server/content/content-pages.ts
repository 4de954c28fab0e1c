import MarkdownIt from "markdown-it";
import { DAILY_VOTE_XP_CAP, XP } from "~/lib/xp";
import { INITIATE_DAILY_POSTS } from "~/lib/privileges";
import { SIGN_IN_LIMIT, SIGN_IN_WINDOW_MS } from "~/lib/limits";
import { MASTER_VIRTUE_LEVEL, RANKS } from "~/lib/ranks";
import { CONTACT_EMAIL, EMAIL_LINK_CLASS, TEXT_LINK_CLASS } from "~/lib/site";
import { formatCount } from "~/lib/utils";
import { challengesForLevel, isVirtue, MAX_VIRTUE_LEVEL, type Virtue } from "~/lib/virtues";

/*
 * The site's own prose (manifesto, FAQ, terms, privacy, conduct) lives as Markdown in content/,
 * written by people, not developers (content/README.md explains the format). Vite bundles the files
 * at build time; this module turns them into blocks once, when the server starts, and a page's
 * loader only looks its blocks up. Any mistake in a file (an unknown {{value}}, a missing title)
 * stops the start with a message naming the file, instead of showing a broken page.
 */

/** One top-level element of a page: its tag and its inner HTML, trusted (it is our own text). */
export type HtmlBlock = { kind: "html"; tag: "p" | "ul" | "ol" | "h3" | "h4" | "blockquote"; html: string; start?: number };
export type ContentLink = { label: string; to: string };
export type Block =
  | HtmlBlock
  /** A list whose items each start with {{virtue:id}}: the virtue's badge, then the text. */
  | { kind: "virtues"; items: { virtue: Virtue; html: string }[] }
  /** A row of buttons; `member` is what a signed-in member sees instead (ADR 0014). */
  | { kind: "buttons"; buttons: (ContentLink & { member?: ContentLink })[] }
  /** On a page with `questions: yes`, each ### heading is a question that opens to its answer. */
  | { kind: "question"; question: string; blocks: HtmlBlock[] };

export interface ContentSection {
  id: string;
  title: string;
  blocks: Block[];
}

export interface ContentPage {
  slug: string;
  title: string;
  /** The browser tab's title, when shorter than the heading (FAQ). */
  tabTitle: string;
  description: string;
  /** ISO date shown as "Last updated". */
  updated?: string;
  lead: HtmlBlock[];
  sections: ContentSection[];
}

/**
 * The numbers prose may quote, each read from the rule it states, so a page cannot drift from what
 * the site enforces: `{{xp.reply.posted}}` in a file becomes 2.
 */
export const CONTENT_VALUES: Readonly<Record<string, string>> = {
  ...Object.fromEntries(Object.entries(XP).map(([kind, points]) => [`xp.${kind}`, String(points)])),
  "xp.daily-cap": String(DAILY_VOTE_XP_CAP),
  ...Object.fromEntries(RANKS.map((rank) => [`rank.${rank.id}`, formatCount(rank.minXp)])),
  "virtue.master-level": String(MASTER_VIRTUE_LEVEL),
  ...Object.fromEntries(Array.from({ length: MAX_VIRTUE_LEVEL }, (_, i) => [`virtue.level-${i + 1}`, String(challengesForLevel(i + 1))])),
  "limit.initiate-posts": String(INITIATE_DAILY_POSTS),
  "limit.sign-in": String(SIGN_IN_LIMIT),
  "limit.sign-in-minutes": String(SIGN_IN_WINDOW_MS / 60_000),
  "contact.email": CONTACT_EMAIL,
};

// Our own text: no raw HTML (a page is Markdown only), no typographer (quotes stay as written, as
// they were in the TSX pages), no linkify (a link is written as one).
const md = new MarkdownIt({ html: false, linkify: false, typographer: false });
md.renderer.rules.softbreak = () => " ";
const defaultLinkOpen = md.renderer.rules.link_open ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
  const href = String(tokens[idx].attrGet("href") ?? "");
  tokens[idx].attrSet("class", href.startsWith("mailto:") ? EMAIL_LINK_CLASS : TEXT_LINK_CLASS);
  return defaultLinkOpen(tokens, idx, options, env, self);
};

type Token = ReturnType<InstanceType<typeof MarkdownIt>["parse"]>[number];

const FRONT_MATTER = /^---\r?\n([\s\S]*?)\r?\n---\r?\n/;
const KEYS = new Set(["title", "tab-title", "description", "updated", "questions"]);
const BLOCK_TAGS = new Set(["p", "ul", "ol", "h3", "h4", "blockquote"]);

/** Parses one page; `file` names it in errors. Throws on anything the page could not show right. */
export function parseContentPage(slug: string, source: string, file = `content/${slug}.md`): ContentPage {
  const fail = (message: string): never => {
    throw new Error(`${file}: ${message}`);
  };
  const front = FRONT_MATTER.exec(source) ?? fail("must start with a --- block holding title and description");
  const meta = new Map<string, string>();
  for (const line of front[1].split(/\r?\n/)) {
    if (!line.trim()) continue;
    const match = /^([a-z-]+):\s*(.*)$/.exec(line) ?? fail(`"${line}" is not "key: value"`);
    if (!KEYS.has(match[1])) fail(`unknown key "${match[1]}" (known: ${[...KEYS].join(", ")})`);
    meta.set(match[1], match[2].trim());
  }
  const title = meta.get("title") || fail("needs a title");
  const description = meta.get("description") || fail("needs a description");
  const updated = meta.get("updated");
  if (updated !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(updated)) fail(`updated must be YYYY-MM-DD, not "${updated}"`);
  const questions = meta.get("questions") === "yes";

  const body = source.slice(front[0].length).replace(/\{\{\s*([^{}]*?)\s*\}\}/g, (whole, key: string) => {
    if (key === "buttons" || key.startsWith("virtue:")) return `{{${key}}}`;
    return CONTENT_VALUES[key] ?? fail(`unknown value {{${key}}} (known: ${Object.keys(CONTENT_VALUES).join(", ")})`);
  });

  const tokens = md.parse(body, {});
  const page: ContentPage = { slug, title, tabTitle: meta.get("tab-title") || title, description, updated, lead: [], sections: [] };
  let section: ContentSection | null = null;
  let question: Extract<Block, { kind: "question" }> | null = null;

  /** The index of the token closing the block that opens at `i`. */
  const closing = (i: number) => {
    if (tokens[i].nesting === 0) return i;
    let depth = 0;
    for (let j = i; j < tokens.length; j++) {
      depth += tokens[j].nesting;
      if (depth === 0) return j;
    }
    return fail("a block is never closed");
  };
  const inlineHtml = (inline: Token) => md.renderer.renderInline(inline.children ?? [], md.options, {});
  const itemsOf = (open: number, close: number) => {
    const items: Token[] = [];
    for (let k = open + 1; k < close; k = closing(k) + 1) {
      const inner = tokens.slice(k + 1, closing(k));
      const inlines = inner.filter((t) => t.type === "inline");
      if (inlines.length !== 1 || inner.some((t) => t.type.endsWith("list_open"))) fail("each item of this list must be one paragraph");
      items.push(inlines[0]);
    }
    return items;
  };
  const add = (block: Block) => {
    if (question) {
      if (block.kind !== "html") fail("a question's answer may hold only paragraphs, lists and headings");
      question.blocks.push(block as HtmlBlock);
    } else if (section) {
      if (questions && block.kind === "html") fail("on a questions page, text under a ## heading must sit under a ### question");
      section.blocks.push(block);
    } else if (block.kind === "html") page.lead.push(block);
    else fail("buttons and virtue lists belong under a ## heading");
  };

  for (let i = 0; i < tokens.length; i = closing(i) + 1) {
    const open = tokens[i];
    const close = closing(i);
    const inline = tokens[i + 1];
    if (open.type === "heading_open" && open.tag === "h1") fail("the title goes in the front matter, not in a # heading");
    if (open.type === "heading_open" && open.tag === "h2") {
      const heading = /^(.*?)\s*\{#([a-z0-9-]+)\}$/.exec(inline.content) ?? fail(`"## ${inline.content}" needs an anchor: ## Title {#anchor}`);
      section = { id: heading[2], title: heading[1], blocks: [] };
      question = null;
      page.sections.push(section);
      continue;
    }
    if (questions && open.type === "heading_open" && open.tag === "h3") {
      if (!section) fail("a ### question must sit under a ## heading");
      question = { kind: "question", question: inline.content, blocks: [] };
      section!.blocks.push(question);
      continue;
    }
    if (open.type === "paragraph_open" && inline.content.trim() === "{{buttons}}") {
      const list = close + 1;
      if (tokens[list]?.type !== "bullet_list_open") fail("{{buttons}} must be followed by a list of links");
      const buttons = itemsOf(list, closing(list)).map((item) => {
        const links: ContentLink[] = [];
        const children = item.children ?? [];
        children.forEach((child, k) => {
          if (child.type !== "link_open") return;
          const end = children.findIndex((c, m) => m > k && c.type === "link_close");
          links.push({
            to: String(child.attrGet("href") ?? ""),
            label: children
              .slice(k + 1, end)
              .map((c) => c.content)
              .join(""),
          });
        });
        if (links.length < 1 || links.length > 2) fail("each button is one link, then optionally the link members see instead");
        return { ...links[0], member: links[1] };
      });
      add({ kind: "buttons", buttons });
      i = list; // the loop steps past the list's closing token
      continue;
    }
    if (open.type === "bullet_list_open") {
      const items = itemsOf(i, close);
      const marked = items.filter((item) => item.content.startsWith("{{virtue:"));
      if (marked.length > 0) {
        if (marked.length !== items.length) fail("in a list of virtues, every item starts with {{virtue:id}}");
        add({
          kind: "virtues",
          items: items.map((item) => {
            const children = item.children ?? [];
            const first = children[0];
            const mark = /^\{\{virtue:([a-z]+)\}\}\s*/.exec(first?.type === "text" ? first.content : "");
            if (!mark || !isVirtue(mark[1])) return fail(`unknown virtue in "${item.content.slice(0, 30)}"`);
            const rest = [
              Object.assign(Object.create(Object.getPrototypeOf(first)), first, { content: first.content.slice(mark[0].length) }),
              ...children.slice(1),
            ];
            return { virtue: mark[1], html: md.renderer.renderInline(rest, md.options, {}) };
          }),
        });
        continue;
      }
    }
    if (!BLOCK_TAGS.has(open.tag) || open.nesting !== 1) fail(`a ${open.type.replace(/_open$/, "")} is not supported on content pages`);
    const tag = open.tag as HtmlBlock["tag"];
    const html =
      open.type === "paragraph_open" || open.type === "heading_open" ? inlineHtml(inline) : md.renderer.render(tokens.slice(i + 1, close), md.options, {});
    const start = open.type === "ordered_list_open" && open.attrGet("start") ? Number(open.attrGet("start")) : undefined;
    add({ kind: "html", tag, html, ...(start ? { start } : {}) });
  }

  const leftover = JSON.stringify(page).match(/\{\{[^}]*\}\}/);
  if (leftover) fail(`${leftover[0]} is in the wrong place`);
  return page;
}

const SOURCES = import.meta.glob<string>(["/content/*.md", "!/content/README.md"], {
  query: "?raw",
  import: "default",
  eager: true,
});

/** Every content page, parsed once when the server starts. */
export const CONTENT_PAGES: ReadonlyMap<string, ContentPage> = new Map(
  Object.entries(SOURCES).map(([file, source]) => {
    const slug = file.replace(/^.*\//, "").replace(/\.md$/, "");
    return [slug, parseContentPage(slug, source, file.replace(/^\//, ""))];
  }),
);

export function contentPage(slug: string): ContentPage | undefined {
  return CONTENT_PAGES.get(slug);
}
