/** The longest excerpt, in characters, before the ellipsis. */
export const EXCERPT_LENGTH = 160;

/**
 * A plain-text teaser from Markdown: code fences dropped, images and links reduced to their text,
 * marks stripped, white space collapsed, cut at a word boundary.
 *
 * Linear in the length of the input (ADR 0012): the regexes this replaces
 * (`!\[([^\]]*)\]\([^)]*\)` and friends) rescanned the rest of the text from every `[` that had no
 * `]`, so 20,000 characters of `![` cost hundreds of milliseconds. Here every search for a closing
 * mark remembers where it stopped and never scans the same stretch twice. The result is the same
 * as the regexes': images, then links, each pass leftmost first, the label's text kept as written.
 */
export function excerptOf(markdown: string, max = EXCERPT_LENGTH): string {
  const plain = stripMarks(linkTexts(linkTexts(withoutFences(markdown), "!["), "["));
  if (plain.length <= max) return plain;
  const cut = plain.slice(0, max);
  const space = cut.lastIndexOf(" ");
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/**
 * The first index of `needle` at or after `from`, or -1. Callers ask with rising `from`, so the
 * answer is reused while it still lies ahead, and each stretch of text is searched at most once.
 */
function nextFinder(text: string, needle: string) {
  let found = -2; // not searched yet
  return (from: number) => {
    if (found === -1) return -1; // none from an earlier point, so none from a later one
    if (found < from) found = text.indexOf(needle, from);
    return found;
  };
}

/** "```…```" pairs become a space, as `/```[\s\S]*?```/g` did; an unpaired fence stays. */
function withoutFences(text: string): string {
  let out = "";
  let at = 0;
  for (;;) {
    const open = text.indexOf("```", at);
    if (open === -1) break;
    const close = text.indexOf("```", open + 3);
    if (close === -1) break;
    out += `${text.slice(at, open)} `;
    at = close + 3;
  }
  return out + text.slice(at);
}

/**
 * `opener label](destination)` becomes `label`, where the label has no `]` and the destination no
 * `)`, exactly the matches of `/!\[([^\]]*)\]\([^)]*\)/g` (opener "![") or `/\[([^\]]*)\]\([^)]*\)/g`
 * (opener "["): from an opener, the only candidate is the first `]` after it and the first `)`
 * after that, so one remembered search for each is enough.
 */
function linkTexts(text: string, opener: "![" | "["): string {
  const nextOpener = nextFinder(text, opener);
  const nextBracket = nextFinder(text, "]");
  const nextParen = nextFinder(text, ")");
  let out = "";
  let at = 0; // copied up to here
  let from = 0; // look for the next opener from here
  for (;;) {
    const start = nextOpener(from);
    if (start === -1) break;
    const labelStart = start + opener.length;
    const bracket = nextBracket(labelStart);
    if (bracket === -1) break; // no `]` after this opener, so none after any later one
    const paren = text.charCodeAt(bracket + 1) === 40 /* ( */ ? nextParen(bracket + 2) : -1;
    if (paren === -1) {
      from = start + 1;
      continue;
    }
    const label = text.slice(labelStart, bracket);
    // A picture's size (`![garden|1600x1200](…)`, issue 32) is no words of the post.
    out += text.slice(at, start) + (opener === "![" ? label.replace(/\|\d{1,5}x\d{1,5}$/, "") : label);
    at = from = paren + 1;
  }
  return out + text.slice(at);
}

/** Emphasis, code, heading and quote marks go; runs of white space become one space. */
function stripMarks(text: string): string {
  return text
    .replace(/[*_`~#>]+/g, "")
    .replace(/\s+/g, " ")
    .trim();
}
