import MarkdownIt from "markdown-it";

/**
 * Member Markdown to HTML, on the server only. Raw HTML is off, so a <script> in a post is shown as
 * text; markdown-it refuses javascript:, vbscript: and data: links (but image data URLs).
 */
const md = new MarkdownIt({ html: false, linkify: true, typographer: true, breaks: false });

const defaultLinkOpen =
  md.renderer.rules.link_open ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
  // Member links earn no ranking and learn nothing about the page they came from.
  tokens[idx].attrSet("rel", "nofollow ugc noopener noreferrer");
  return defaultLinkOpen(tokens, idx, options, env, self);
};

export function renderMarkdown(source: string): string {
  return md.render(source);
}
