import { linksAndImages } from "../../markdown";

/**
 * Simple spam signals on a new member's first posts (issue 31, as Discourse's checks for a new
 * user): many links in one post, a link to the same site in every post, or the same text posted
 * again in another place. Any one of them makes the post wait for a moderator's approval. Pure and
 * linear in the text: the caller reads the member's few earlier posts.
 */
export const FIRST_POSTS = 5;
/** "Many links" for a first post: two is already the most an initiate may put in one. */
export const MANY_LINKS = 2;
/** Repeated text must be at least this long to count: "Thank you!" twice is no spam. */
const REPEAT_MIN = 20;

export type SpamSignal = "many links" | "same site in every post" | "text repeated";

interface PostText {
  body: string;
  html: string;
}

/** The sites (host names, without www.) a rendered body links to. */
export function linkedSites(html: string): Set<string> {
  const sites = new Set<string>();
  for (const match of html.matchAll(/<a href="(https?:\/\/[^"]+)"[^>]*rel="nofollow ugc noopener noreferrer"/g)) {
    try {
      sites.add(new URL(match[1]!.replace(/&amp;/g, "&")).hostname.replace(/^www\./, ""));
    } catch {
      // Not a URL the browser would follow either.
    }
  }
  return sites;
}

const normalized = (body: string) => body.toLowerCase().replace(/\s+/g, " ").trim();

/** The first signal this post shows, given the member's earlier posts (newest first), or null. */
export function spamSignal(post: PostText, earlier: readonly PostText[]): SpamSignal | null {
  if (earlier.length >= FIRST_POSTS) return null;
  if (linksAndImages(post.html).links >= MANY_LINKS) return "many links";
  const sites = linkedSites(post.html);
  if (earlier.length > 0 && sites.size > 0) {
    const earlierSites = earlier.map((e) => linkedSites(e.html));
    for (const site of sites) if (earlierSites.every((s) => s.has(site))) return "same site in every post";
  }
  const text = normalized(post.body);
  if (text.length >= REPEAT_MIN && earlier.some((e) => normalized(e.body) === text)) return "text repeated";
  return null;
}
