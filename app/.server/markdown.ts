import MarkdownIt, { type StateCore, type Token } from "markdown-it";
import { isMediaName } from "~/lib/media";
import { isProfileHandle } from "~/lib/members";

/**
 * Member Markdown to HTML, on the server only. Raw HTML is off, so a <script> in a post is shown as
 * text; markdown-it refuses javascript:, vbscript: and data: links (but image data URLs).
 */
const md = new MarkdownIt({
  html: false,
  linkify: true,
  typographer: true,
  breaks: false,
  // Every unclosed `[` makes markdown-it look for its `]` through up to maxNesting levels of
  // brackets, so a post of `![` repeated costs about 2 × maxNesting steps per character: 100 (the
  // default preset's) made 20,000 characters of `![` take ~100 ms; 20 (CommonMark's preset) takes
  // ~18 ms. Blocks share the bound: quotes render 19 deep and lists 9 deep before markdown-it drops
  // the innermost content, deeper than forum posts go. Measurements in ADR 0012.
  maxNesting: 20,
});

/** The configured parser itself, for tests that count its steps; render with renderMarkdown. */
export const markdownParser = md;

const defaultLinkOpen = md.renderer.rules.link_open ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
  // Member links earn no ranking and learn nothing about the page they came from; a mention is
  // our own link to a profile.
  if (!tokens[idx].meta?.mention) tokens[idx].attrSet("rel", "nofollow ugc noopener noreferrer");
  return defaultLinkOpen(tokens, idx, options, env, self);
};

/**
 * Images (issue 32, ADR 0071). A picture uploaded into a post is written `![alt|1600x1200](/media/…)`
 * (Discourse's way of carrying the size in Markdown): it renders with that width and height, so
 * the page keeps its place while the image arrives, and loads lazily. The Content-Security-Policy
 * lets the page load images from this site only (and data: URLs), so an image from anywhere else
 * would show broken and tell that site who reads the post: it renders as a link to it instead.
 */
const SIZED_ALT = /^([^]*)\|(\d{1,5})x(\d{1,5})$/;
const IMAGE_SIDE_MAX = 16_383;
const escapeHtml = md.utils.escapeHtml;

md.renderer.rules.image = (tokens, idx, options, env, self) => {
  const token = tokens[idx]!;
  const src = String(token.attrGet("src") ?? "");
  let alt = self.renderInlineAsText(token.children ?? [], options, env);
  const sized = SIZED_ALT.exec(alt);
  let size = "";
  if (sized) {
    alt = sized[1]!.trimEnd();
    const [width, height] = [Number(sized[2]), Number(sized[3])];
    if (width >= 1 && height >= 1 && width <= IMAGE_SIDE_MAX && height <= IMAGE_SIDE_MAX) size = ` width="${width}" height="${height}"`;
  }
  const title = token.attrGet("title");
  const titled = title ? ` title="${escapeHtml(String(title))}"` : "";
  if (isOwnImage(src)) return `<img src="${escapeHtml(src)}" alt="${escapeHtml(alt)}"${size}${titled} loading="lazy" decoding="async">`;
  return `<a href="${escapeHtml(src)}" rel="nofollow ugc noopener noreferrer"${titled}>${escapeHtml(alt || src)}</a>`;
};

/** An image the page may load: one of this site's stored files or a data: URL (markdown-it lets only images through as data:). */
function isOwnImage(src: string) {
  if (src.startsWith("data:")) return true;
  return src.startsWith("/media/") && isMediaName(src.slice("/media/".length));
}

/**
 * `@handle` mentions (issue 28). Handles are made by slugify (app/lib/slug.ts), so they are lower
 * case: `@Nora-Newcomer` names `nora-newcomer`. A mention is `@` and a run of letters, digits and
 * hyphens (trailing hyphens are prose) that is a possible living member's handle (isProfileHandle:
 * at most 80 characters, not a deleted account's), and
 * - stands apart: not right after a letter, digit, `_`, `@`, `/`, `.` or `-` (an address, a path),
 *   and not right before a letter, digit, `_` or `@`, nor before `.` or `/` and a letter or digit
 *   (`@example.com`, `@scope/package`); a longer run is no mention of its first 80 characters;
 * - is text of the parsed Markdown: code spans, code blocks and an image's alt text are other
 *   tokens, text inside a link (its label, a linkified URL or address) is skipped, and an escaped
 *   or entity `@` (`\@nora`, `&commat;nora`) is a text_special token, never scanned. For that the
 *   rule runs before text_join, which turns those tokens into text.
 * Linear by construction (posts run to tens of thousands of characters): each text token is scanned
 * once, `indexOf` visits each `@` once, each check reads at most two characters around it, and a run
 * holds no `@`, so no character is read by two runs. The only regexes test a single character.
 */
const WORD = /[\p{L}\p{N}\p{M}_]/u;
/** What a mention's `@` may not follow. */
const NOT_AFTER = /[\p{L}\p{N}\p{M}_@/.-]/u;

// A type, not an interface: markdown-it's Env is an index signature, which only a type alias meets.
type MentionEnv = {
  /** Collects the handles named, in order (mentionCandidates). */
  collect?: string[];
  /** Renders these handles as links to their profiles (renderMarkdown). */
  mentions?: ReadonlySet<string>;
};

md.core.ruler.before("text_join", "mentions", (state) => {
  const env = state.env as MentionEnv;
  if (!env.collect && !env.mentions?.size) return;
  for (const block of state.tokens) {
    if (block.type !== "inline" || !block.children) continue;
    const children = block.children;
    let inLink = 0;
    const out: Token[] = [];
    for (let i = 0; i < children.length; i++) {
      const token = children[i]!;
      if (token.type === "link_open") inLink += 1;
      if (token.type === "link_close") inLink -= 1;
      if (token.type !== "text" || inLink > 0 || !token.content.includes("@")) {
        out.push(token);
        continue;
      }
      const before = isText(children[i - 1]) ? children[i - 1]!.content : "";
      const after = isText(children[i + 1]) ? children[i + 1]!.content : "";
      let last = 0;
      for (const { at, end, handle } of mentionsIn(token.content, before, after)) {
        env.collect?.push(handle);
        if (!env.mentions?.has(handle)) continue;
        if (at > last) out.push(textToken(state, token.content.slice(last, at)));
        const open = new state.Token("link_open", "a", 1);
        open.attrs = [
          ["href", `/members/${handle}`],
          ["class", "mention"],
        ];
        open.meta = { mention: true };
        // The mention reads as written (`@Nora`); the address is the handle itself.
        out.push(open, textToken(state, token.content.slice(at, end)), new state.Token("link_close", "a", -1));
        last = end;
      }
      if (last === 0) out.push(token);
      else if (last < token.content.length) out.push(textToken(state, token.content.slice(last)));
    }
    block.children = out;
  }
});

/** Text and text_special (an escaped character, an entity): the characters around a mention. */
function isText(token: Token | undefined) {
  return token?.type === "text" || token?.type === "text_special";
}

/** The mentions in one text token, `before` and `after` being the text next to it (see above). */
function* mentionsIn(text: string, before: string, after: string) {
  // The characters either side of the token, as the checks below see them: at most one code point
  // before (two UTF-16 units) and two characters after.
  const context = `${before.slice(-2)}${text}${after.slice(0, 2)}`;
  const offset = Math.min(before.length, 2);
  for (let at = text.indexOf("@"); at !== -1; at = text.indexOf("@", at + 1)) {
    const start = offset + at;
    if (start > 0 && NOT_AFTER.test(charBefore(context, start))) continue;
    let end = start + 1;
    while (end < context.length && isHandleChar(context.charCodeAt(end))) end++;
    if (end - offset > text.length) continue; // the run goes on into the next token: a longer word
    const next = context[end] ?? "";
    if (next === "@" || WORD.test(charAt(context, end))) continue;
    if ((next === "." || next === "/") && WORD.test(charAt(context, end + 1))) continue;
    let stop = end;
    while (context[stop - 1] === "-") stop--;
    const handle = context.slice(start + 1, stop).toLowerCase();
    if (!isProfileHandle(handle)) continue;
    yield { at, end: stop - offset, handle };
    at = end - offset - 1;
  }
}

function isHandleChar(code: number) {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 45;
}

/** The code point that ends just before `index` (one or two UTF-16 units). */
function charBefore(text: string, index: number) {
  const low = text.charCodeAt(index - 1);
  return low >= 0xdc00 && low <= 0xdfff && index >= 2 ? text.slice(index - 2, index) : text.slice(index - 1, index);
}

/** The code point that starts at `index`, or "" past the end. */
function charAt(text: string, index: number) {
  const code = text.codePointAt(index);
  return code === undefined ? "" : String.fromCodePoint(code);
}

function textToken(state: StateCore, content: string) {
  const token = new state.Token("text", "", 0);
  token.content = content;
  return token;
}

/**
 * Renders member Markdown. `mentions`: handles (lower case, as stored) of living members; each
 * `@handle` of one of them becomes a link to their profile, any other stays text. Without it, or
 * with an empty set, the output is exactly as before mentions existed.
 */
export function renderMarkdown(source: string, options: { mentions?: ReadonlySet<string> } = {}): string {
  return md.render(source, options.mentions?.size ? ({ mentions: options.mentions } satisfies MentionEnv) : {});
}

/** The handles a body mentions (lower case), in the order it first names them, each once. */
export function mentionCandidates(source: string): string[] {
  if (!source.includes("@")) return [];
  const env: MentionEnv = { collect: [] };
  md.parse(source, env);
  return [...new Set(env.collect)];
}

/**
 * How many links (members' own, not mentions) and images rendered HTML holds: the new-member
 * safeguard's count (issue 31). One pass over the string; only renderMarkdown's output is given.
 */
export function linksAndImages(html: string): { links: number; images: number } {
  let links = 0;
  let images = 0;
  for (const match of html.matchAll(/<a [^>]*rel="nofollow ugc noopener noreferrer"|<img /g)) {
    if (match[0].startsWith("<img")) images++;
    else links++;
  }
  return { links, images };
}
