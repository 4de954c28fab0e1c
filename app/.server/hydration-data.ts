import type { RouterContextProvider } from "react-router";
import { requestContext } from "./context";

const PROSE_KEYS = new Set(["html", "descriptionHtml", "cardHtml", "relatedHtml", "reactionsHtml"]);

/**
 * Leaves rendered member HTML out of a document's hydration data, so a page carries it once, in the
 * markup (MemberProse takes it from there while hydrating; ADR 0029). The property stays readable
 * for the server render but becomes non-enumerable, which the serializer skips (turbo-stream walks
 * Object.keys). A `.data` fetch for a client-side navigation keeps it: there is no markup to read.
 * Only string values named `html`, `descriptionHtml`, `cardHtml` (a reply card's cached markup,
 * ADR 0032), `relatedHtml` (a post page's related posts, issue 30) or `reactionsHtml` (a post's
 * reaction bar, issue 31) are touched; `null` (a deleted post) stays.
 */
export function proseInMarkupOnly<T>(context: Readonly<RouterContextProvider>, data: T): T {
  if (context.get(requestContext).document) hide(data, 0);
  return data;
}

const HIDDEN: PropertyDescriptor = Object.freeze({ enumerable: false });

// for…in and one shared descriptor: Object.entries allocated an array per object of a 50-reply
// page's data on every request (about 3% of a signed-in page, issue 13).
function hide(value: unknown, depth: number) {
  if (depth > 4 || value === null || typeof value !== "object") return;
  if (Array.isArray(value)) {
    for (const item of value) hide(item, depth + 1);
    return;
  }
  const record = value as Record<string, unknown>;
  for (const key in record) {
    const inner = record[key];
    if (typeof inner === "string") {
      if (PROSE_KEYS.has(key)) Object.defineProperty(record, key, HIDDEN);
    } else if (inner !== null && typeof inner === "object") hide(inner, depth + 1);
  }
}
