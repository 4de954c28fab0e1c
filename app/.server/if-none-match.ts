/**
 * If-None-Match (RFC 9110 §13.1.2): `*`, or a list naming this tag, weakly compared (a `W/` on
 * either side is ignored), for the responses the app itself validates: stored media and calendars.
 */
export function matchesIfNoneMatch(header: string | null, etag: string) {
  if (header === null) return false;
  if (header.trim() === "*") return true;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, "");
  return header.split(",").some((tag) => opaque(tag) === opaque(etag));
}
