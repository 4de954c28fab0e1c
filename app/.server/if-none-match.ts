/**
 * If-None-Match (RFC 9110 §13.1.2): `*`, or a list naming one of these tags, weakly compared (a `W/`
 * on either side is ignored). One reading for every response validated by its tag: stored media and
 * calendars here, kept pages and the build's assets in server/http-encoding.ts.
 */
export function matchesIfNoneMatch(header: string | null, etags: string | readonly string[]) {
  if (header === null) return false;
  if (header.trim() === "*") return true;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, "");
  const wanted = (typeof etags === "string" ? [etags] : etags).map(opaque);
  return header.split(",").some((tag) => wanted.includes(opaque(tag)));
}
