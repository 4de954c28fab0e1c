// Relative, not "~/": vite.config.ts imports static-assets.ts, and Vite loads its config without the app's aliases.
import { matchesIfNoneMatch } from "../app/.server/if-none-match";

/**
 * How the server picks a stored encoding and names each variant, for the two places that hold
 * bytes precompressed: the page cache (ADR 0026) and the build's assets (ADR 0038). They used to
 * parse Accept-Encoding each its own way and disagreed: the page cache took brotli whenever its q
 * was above 0, even where the browser weighed gzip higher.
 */

export type Encoding = "br" | "gzip" | "identity";

/** Preference at equal weight: brotli is smaller, gzip is everywhere, then the bytes themselves. */
const ORDER: readonly Encoding[] = ["br", "gzip", "identity"];

/**
 * The encoding to send for an Accept-Encoding header (RFC 9110 §12.5.3), among the variants held:
 * the one the header weighs highest, brotli then gzip then identity at equal weight. A coding the
 * header does not name takes the weight of `*`; q=0 refuses. Identity is acceptable unless refused
 * (by name, or by `*;q=0` without naming it), but below any coding the header names. No header at
 * all (or an empty one) means identity. Null when nothing held is acceptable (a 406, or the caller's
 * fallback). Not Express's `req.acceptsEncodings`: at equal weight it keeps the header's order, and
 * browsers list gzip before br.
 */
export function chooseEncoding(header: string | undefined, available: Partial<Record<Encoding, unknown>>): Encoding | null {
  if (header === undefined || header.trim() === "") return available.identity === undefined ? null : "identity";
  const weights = new Map<string, number>();
  for (const part of header.split(",")) {
    const [name, ...params] = part.toLowerCase().split(";");
    // Spaces are allowed around ";" and "=" ("br ;q=0"): the name and each parameter are trimmed.
    const token = name!.trim();
    if (!token) continue;
    let q = 1;
    for (const param of params) {
      const [key, value] = param.split("=");
      if (key?.trim() === "q") q = Number(value?.trim());
    }
    weights.set(token, Number.isFinite(q) ? q : 0);
  }
  // Identity unnamed and not covered by `*` is still acceptable, as the least preferred.
  const weight = (name: Encoding) => weights.get(name) ?? weights.get("*") ?? (name === "identity" ? Number.MIN_VALUE : 0);
  let best: Encoding | null = null;
  let bestWeight = 0;
  for (const name of ORDER) {
    if (available[name] === undefined) continue;
    const q = weight(name);
    // Strictly greater: at equal weight the earlier in ORDER stays.
    if (q > bestWeight) {
      best = name;
      bestWeight = q;
    }
  }
  return best;
}

const SUFFIX: Record<Encoding, string> = { identity: "", gzip: "-gz", br: "-br" };

/** The strong ETag of one encoding's bytes: the identity bytes' tag, with a suffix per encoding. */
export function encodedTag(base: string, encoding: Encoding) {
  return `"${base}${SUFFIX[encoding]}"`;
}

/** Whether If-None-Match names any of these tags (or `*`), weakly compared (RFC 9110 §13.1.2). */
export function notModifiedFor(ifNoneMatch: string | string[] | undefined, tags: string | readonly string[]) {
  const header = Array.isArray(ifNoneMatch) ? ifNoneMatch.join(", ") : ifNoneMatch;
  return matchesIfNoneMatch(header ?? null, tags);
}
