import type { Db } from "../../db/connect";
import { ALL_SECTIONS, discussionPath } from "../forum/section-read-model";
import { profilePath } from "~/lib/members";
import { MAX_ID } from "~/lib/params";
import {
  eventsForSitemap,
  highestIds,
  livingMemberCount,
  livingMembersPage,
  publicCreationsBetween,
  publicDiscussionsBetween,
  publicQuestionsBetween,
  topicsForSitemap,
} from "./sitemap-repository";

/**
 * The sitemap (issue 30): an index naming its parts, each part at most 50,000 addresses (the
 * protocol's limit). Posts are split by id range, so a part is one range scan whatever the size of
 * the site, and its name (`discussions-3`) always covers the same ids. Addresses only, relative to the
 * site; the route makes them absolute. Never kept by the page cache: a crawler's read is rare and
 * must see what is public now.
 */
export const SITEMAP_PART_SIZE = 50_000;

export interface SitemapEntry {
  path: string;
  /** When its content last changed, as an ISO timestamp. */
  lastmod: string | null;
}

const RANGED = ["discussions", "questions", "creations"] as const;
export type SitemapPartKind = (typeof RANGED)[number] | "members" | "pages" | "events";

/** Every part's name, as `sitemap/<name>.xml` serves it. */
export async function sitemapParts(db: Db, size = SITEMAP_PART_SIZE): Promise<string[]> {
  const [highest, members] = await Promise.all([highestIds(db), livingMemberCount(db)]);
  const parts = ["pages", "events"];
  const max = { discussions: highest.discussion, questions: highest.question, creations: highest.creation };
  for (const kind of RANGED) for (let n = 1; (n - 1) * size < max[kind]; n++) parts.push(`${kind}-${n}`);
  for (let n = 1; (n - 1) * size < members; n++) parts.push(`members-${n}`);
  return parts;
}

/** A part's name read back: its kind and number, or null for a name the index never gives. */
export function parsePartName(name: string): { kind: SitemapPartKind; n: number } | null {
  if (name === "pages" || name === "events") return { kind: name, n: 1 };
  const match = /^(discussions|questions|creations|members)-([1-9][0-9]{0,5})$/.exec(name);
  return match ? { kind: match[1] as SitemapPartKind, n: Number(match[2]) } : null;
}

const iso = (at: string | Date | null | undefined) => (at == null ? null : new Date(at).toISOString());
const later = (a: string | Date, b: string | Date | null) => (b != null && new Date(b) > new Date(a) ? b : a);

/** One part's addresses; null when the name is not one the index could give. */
export async function sitemapPart(db: Db, name: string, size = SITEMAP_PART_SIZE): Promise<SitemapEntry[] | null> {
  const part = parsePartName(name);
  if (!part) return null;
  const first = (part.n - 1) * size + 1;
  // Ids are checked against the column's range before they reach SQL: PostgreSQL refuses an integer
  // parameter past it with an error, and no id there can exist.
  if (first > MAX_ID) return null;
  const last = Math.min(part.n * size, MAX_ID);
  switch (part.kind) {
    case "pages": {
      const topics = await topicsForSitemap(db);
      const fixed = ["/", ...ALL_SECTIONS.map((s) => `/${s}`), "/council", "/forge", "/challenges", "/events", "/members", "/ranks", "/manifesto", "/faq"];
      return [...fixed.map((path) => ({ path, lastmod: null })), ...topics.map((t) => ({ path: `/${t.section}/${t.id}`, lastmod: iso(t.at) }))];
    }
    case "events":
      return (await eventsForSitemap(db)).map((e) => ({ path: `/events/${e.id}`, lastmod: iso(e.at) }));
    case "discussions":
      return (await publicDiscussionsBetween(db, first, last)).map((d) => ({ path: discussionPath(d.section, d.topic_id, d), lastmod: iso(d.at) }));
    case "questions":
      return (await publicQuestionsBetween(db, first, last)).map((q) => ({ path: `/council/${q.id}`, lastmod: iso(q.at) }));
    case "creations":
      return (await publicCreationsBetween(db, first, last)).map((c) => ({ path: `/forge/${c.id}`, lastmod: iso(later(c.created_at, c.edited_at)) }));
    case "members":
      return (await livingMembersPage(db, first - 1, size)).flatMap((m) => {
        const path = profilePath(m.handle);
        return path ? [{ path, lastmod: iso(m.at) }] : [];
      });
  }
}
