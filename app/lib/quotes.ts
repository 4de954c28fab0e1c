/**
 * A quote of another post as Markdown (issue 32): its lines in a block quote, then who wrote it as a
 * link back to where it is. Made by the server for a Quote link, and in the browser for quoted
 * selected text, so both read the same.
 */
export function quoteMarkdown(text: string, name: string, url: string): string {
  const lines = text.trim().split(/\r?\n/);
  // The name is text in a link's label: its Markdown marks are escaped, so "[x](y)" stays a name.
  const label = name.replace(/[\\[\]*_`<>]/g, (c) => `\\${c}`);
  return `${lines.map((line) => (line === "" ? ">" : `> ${line}`)).join("\n")}\n>\n> — [${label}](${url})\n\n`;
}

/** What a quote of a post nobody may read any more says in its place. */
export const QUOTE_REMOVED = "> [quoted post removed]\n\n";
