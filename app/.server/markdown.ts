import MarkdownIt from "markdown-it";

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
  // Member links earn no ranking and learn nothing about the page they came from.
  tokens[idx].attrSet("rel", "nofollow ugc noopener noreferrer");
  return defaultLinkOpen(tokens, idx, options, env, self);
};

export function renderMarkdown(source: string): string {
  return md.render(source);
}
