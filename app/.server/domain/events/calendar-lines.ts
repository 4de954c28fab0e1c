/**
 * Content lines as RFC 5545 §3.1 wants them: at most 75 octets each, UTF-8, excluding the CRLF; a
 * longer line goes on in continuation lines that begin with one space (which counts), and a fold
 * never falls inside a multi-octet character. The `ics` library folds at 75 characters, so a line
 * of non-ASCII text came out at up to 139 octets (issue 26 item 7); its output is unfolded and
 * folded again here.
 */
export const LINE_OCTETS = 75;

/** The UTF-8 length of one code point. */
function octets(codePoint: number) {
  return codePoint < 0x80 ? 1 : codePoint < 0x800 ? 2 : codePoint < 0x10000 ? 3 : 4;
}

/** One unfolded content line, folded by octets; `for…of` walks code points, so a surrogate pair stays whole. */
export function foldLine(line: string): string {
  const parts: string[] = [];
  let current = "";
  let size = 0;
  for (const char of line) {
    const n = octets(char.codePointAt(0)!);
    if (size + n > LINE_OCTETS) {
      parts.push(current);
      current = " ";
      size = 1;
    }
    current += char;
    size += n;
  }
  parts.push(current);
  return parts.join("\r\n");
}

/**
 * A whole calendar file folded again: every fold (CRLF and one space or tab) is undone first. Text
 * values hold no raw line break (they are escaped as `\n`), so each CRLF left ends a content line.
 */
export function refoldCalendar(text: string): string {
  return text
    .replace(/\r\n[ \t]/g, "")
    .split("\r\n")
    .map((line) => (line === "" ? line : foldLine(line)))
    .join("\r\n");
}
