import { createHash } from "node:crypto";
import type { Executor } from "../../db/executor";
import { Lru } from "~/lib/lru";
import { loadSharp } from "../../media/sharp";
import { postKey, postPlaces, type PostPlace } from "../posts/post-places";

/**
 * The pictures a link to a discussion, question or creation shows where it is shared (issue 30):
 * its title, where it is, its author and the site's look, 1200×630, drawn as SVG and rendered by
 * sharp. The address names a hash of what the picture shows, so an edit is a new address and a
 * picture never changes under one: made once per version (and process), kept in a bounded map, and
 * cached by browsers and crawlers for a year.
 */

export type PreviewKind = "discussion" | "question" | "creation";

export interface PreviewFacts {
  title: string;
  where: string;
  author: string | null;
}

/** Changed when the drawing changes, so every address changes with it. */
const DRAWING_VERSION = "1";
const WIDTH = 1200;
const HEIGHT = 630;

const SITE: PreviewFacts = { title: "Inner Peace. Outer Strength.", where: "A community for the mind and the body", author: null };

function hashOf(facts: PreviewFacts) {
  return createHash("sha256")
    .update(JSON.stringify([DRAWING_VERSION, facts.title, facts.where, facts.author]))
    .digest("hex")
    .slice(0, 12);
}

/**
 * What a post's picture shows, from where it is and who wrote it, or undefined when the post is not
 * public (missing, deleted, hidden). Its page makes it from the rows it read already; the picture's
 * own route reads them (previewFacts): both name the same picture.
 */
export function previewFactsOf(place: Pick<PostPlace, "title" | "where" | "deleted" | "hidden"> | undefined, author: string | null): PreviewFacts | undefined {
  if (!place || place.deleted || place.hidden) return undefined;
  return { title: place.title, where: place.where, author };
}

/** What a post's picture shows as the database holds it now, or undefined when the post is not public. */
export async function previewFacts(db: Executor, kind: PreviewKind, id: number): Promise<PreviewFacts | undefined> {
  const place = (await postPlaces(db, [{ kind, id }])).get(postKey({ kind, id }));
  if (!previewFactsOf(place, null)) return undefined;
  const table = kind === "discussion" ? "discussion" : kind === "question" ? "question" : "creation";
  const author = await db
    .selectFrom(table)
    .innerJoin("member", "member.id", `${table}.author_id`)
    .select("member.name")
    .where(`${table}.id`, "=", id)
    .executeTakeFirst();
  return previewFactsOf(place, author?.name ?? null);
}

/** The picture's address for a post as it is now. */
export function previewPath(kind: PreviewKind, id: number, facts: PreviewFacts) {
  return `/previews/${kind}-${id}-${hashOf(facts)}.png`;
}

/** The absolute address of a post's picture as it is now, read from the database; null when not public. */
export async function previewUrlOf(db: Executor, baseUrl: string, kind: PreviewKind, id: number): Promise<string | null> {
  return previewUrlFor(baseUrl, kind, id, await previewFacts(db, kind, id));
}

/** The absolute address of a post's picture, for its page's og:image; null when not public. */
export function previewUrlFor(baseUrl: string, kind: PreviewKind, id: number, facts: PreviewFacts | undefined): string | null {
  return facts ? `${new URL(baseUrl).origin}${previewPath(kind, id, facts)}` : null;
}

export const SITE_PREVIEW = `/previews/site-${hashOf(SITE)}.png`;

const NAME = /^(discussion|question|creation)-([1-9][0-9]{0,9})-([0-9a-f]{12})\.png$/;

/** A requested picture's post, or "site", or null when the name is no picture's. */
export function parsePreviewName(name: string): { kind: PreviewKind; id: number; hash: string } | "site" | null {
  if (name === SITE_PREVIEW.slice("/previews/".length)) return "site";
  const match = NAME.exec(name);
  if (!match) return null;
  const id = Number(match[2]);
  return id <= 2_147_483_647 ? { kind: match[1] as PreviewKind, id, hash: match[3]! } : null;
}

const rendered = new Lru<string, Buffer>(500, { weigh: (_key, png) => png.length, maxWeight: 32 * 1024 * 1024 });
let rendering = 0;
const waiting: Array<() => void> = [];
/** Pictures drawn at once: each holds a sharp pipeline and a core for some tens of milliseconds. */
const RENDERS_AT_ONCE = 2;

/**
 * The PNG of a requested picture, or undefined when the name is no current picture's (an old
 * version, a hidden post): only a post's current address is ever drawn, so a stranger cannot make
 * the site draw more than one picture per version of a public post.
 */
export async function previewPng(db: Executor, name: string): Promise<Buffer | undefined> {
  const wanted = parsePreviewName(name);
  if (wanted === null) return undefined;
  // Asked again each time, drawn once: a post hidden since has no picture, even one drawn before.
  const facts = wanted === "site" ? SITE : await previewFacts(db, wanted.kind, wanted.id);
  if (!facts || (wanted !== "site" && hashOf(facts) !== wanted.hash)) return undefined;
  const kept = rendered.get(name);
  if (kept) return kept;
  const sharp = await loadSharp();
  if (rendering >= RENDERS_AT_ONCE) await new Promise<void>((resolve) => waiting.push(resolve));
  rendering++;
  try {
    const png = await sharp(Buffer.from(drawing(facts)))
      .png({ compressionLevel: 9 })
      .toBuffer();
    rendered.set(name, png);
    return png;
  } finally {
    rendering--;
    waiting.shift()?.();
  }
}

const escapeXml = (text: string) => text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Words on lines of at most `width` characters, at most `lines` lines, the last cut with "…". */
export function wrapWords(text: string, width: number, lines: number): string[] {
  const out: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const piece = word.length > width ? `${word.slice(0, width - 1)}…` : word;
    if (!line) line = piece;
    else if (line.length + 1 + piece.length <= width) line += ` ${piece}`;
    else {
      out.push(line);
      line = piece;
    }
  }
  if (line) out.push(line);
  if (out.length <= lines) return out;
  const kept = out.slice(0, lines);
  kept[lines - 1] = `${kept[lines - 1]!.slice(0, width - 1)}…`;
  return kept;
}

/** The picture as SVG: the site's ink and stone, its mark and name, the title in its serif. */
function drawing(facts: PreviewFacts): string {
  const title = wrapWords(facts.title, 26, 3)
    .map(
      (line, i) =>
        `<text x="80" y="${270 + i * 84}" font-family="DejaVu Serif, Liberation Serif, serif" font-weight="bold" font-size="68" fill="#1c1917">${escapeXml(line)}</text>`,
    )
    .join("");
  const author = facts.author
    ? `<text x="80" y="560" font-family="DejaVu Sans, Liberation Sans, sans-serif" font-size="34" fill="#44403c">by ${escapeXml(facts.author.slice(0, 60))}</text>`
    : "";
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}">
<rect width="${WIDTH}" height="${HEIGHT}" fill="#f5f5f4"/>
<rect width="${WIDTH}" height="14" fill="#0f766e"/>
<rect y="${HEIGHT - 14}" width="${WIDTH}" height="14" fill="#b91c1c"/>
<circle cx="108" cy="100" r="32" fill="#1c1917"/>
<text x="108" y="113" text-anchor="middle" font-family="DejaVu Sans, sans-serif" font-size="36" fill="#ffffff">☯</text>
<text x="160" y="112" font-family="DejaVu Serif, Liberation Serif, serif" font-weight="bold" font-size="34" fill="#1c1917">Inner Peace. Outer Strength.</text>
<text x="80" y="190" font-family="DejaVu Sans, Liberation Sans, sans-serif" font-size="30" fill="#0f766e">${escapeXml(facts.where.slice(0, 70))}</text>
${title}
${author}
</svg>`;
}
