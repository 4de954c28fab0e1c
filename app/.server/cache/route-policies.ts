/**
 * Every route's page-cache policy, in one place (issue 27, ADR 0051). The page cache asks the
 * policy of the route a request matched (the deepest one) before it keeps a page:
 *
 * - "tags": kept while nothing it read has been written since; its loader's read models name what
 *   it read (`readsFrom`). A page that named nothing is still never kept.
 * - "static": shows nothing any member can change (a form with no data in it, a rules page); kept
 *   until a site-wide write, with no read model behind it.
 * - "never": never kept (forms with one member's data, tokens in the address, files, redirects).
 *
 * A route missing here is never kept, and the route test fails on it. Kept here on the server
 * rather than in each module's `handle`, which React Router also sends to the browser.
 */
export type CachePolicy = "tags" | "static" | "never";

export const routeCachePolicies: Readonly<Record<string, CachePolicy>> = {
  root: "tags",
  "routes/home/home": "tags",
  "routes/forge/forge": "tags",
  "routes/forge/share": "never",
  "routes/forge/creation": "tags",
  "routes/forge/edit": "never",
  "routes/resources/media": "never",
  "routes/council/council": "tags",
  "routes/council/ask": "never",
  // JSON for the ask form's live list, counted as a search (issue 30).
  "routes/resources/similar-questions": "never",
  "routes/council/question": "tags",
  "routes/account/join": "static",
  "routes/account/sign-in": "static",
  "routes/account/sign-in-link-request": "static",
  "routes/account/sign-in-link": "never",
  "routes/account/sign-out": "never",
  "routes/account/forgot-password": "static",
  "routes/account/reset-password": "never",
  "routes/account/dashboard": "never",
  // One member's own list, read and changed by opening it (issue 28).
  "routes/account/notifications": "never",
  // One member's own list and notes (issue 30).
  "routes/account/bookmarks": "never",
  "routes/challenges/challenges": "tags",
  "routes/challenges/new-challenge": "never",
  "routes/challenges/proposals": "never",
  "routes/challenges/challenge": "tags",
  "routes/account/settings": "never",
  "routes/resources/settings-export": "never",
  "routes/resources/email-change-confirm": "never",
  "routes/members/profile": "tags",
  // Every join and every XP earned anywhere moves it: never kept (issue 30).
  "routes/members/members": "never",
  // Every query is another page, each counted against the IP's searches (issue 30).
  "routes/search/search": "never",
  // Who reacted: read on demand, rarely, and its refusals answer a member's own form (issue 31).
  "routes/posts/reactions": "never",
  // A post's edit history (issue 32): read rarely, on demand.
  "routes/posts/history": "never",
  // A member's own text rendered back to them (issue 32): a POST, never a page.
  "routes/resources/markdown-preview": "never",
  // A member's own drafts (issue 32), asked for and kept by their editor.
  "routes/resources/drafts": "never",
  // An image added to a Markdown box (issue 32): a write, answered with its Markdown.
  "routes/resources/post-image-upload": "never",
  // The flag form, one member's, and the moderators' queue (issue 31).
  "routes/posts/flag": "never",
  "routes/admin/review": "never",
  "routes/admin/advisors": "never",
  "routes/resources/newsletter": "never",
  "routes/resources/newsletter-confirm": "never",
  "routes/resources/newsletter-unsubscribe": "never",
  // A token in the address, one member's mail settings (issue 28).
  "routes/resources/notifications-unsubscribe": "never",
  "routes/pages/ranks": "static",
  // Files for crawlers; the sitemap must list what is public now (issue 30).
  "routes/resources/robots": "never",
  "routes/resources/sitemap-index": "never",
  "routes/resources/sitemap": "never",
  // Pictures, cached by their hashed names (issue 30).
  "routes/resources/previews": "never",
  "routes/events/events": "tags",
  "routes/events/events-calendar": "never",
  "routes/events/new-event": "never",
  "routes/events/event": "tags",
  "routes/events/edit-event": "never",
  "routes/events/event-calendar": "never",
  "content/manifesto": "static",
  "content/faq": "static",
  "content/terms": "static",
  "content/privacy": "static",
  "content/code-of-conduct": "static",
  "content/markdown": "static",
  "routes/forum/section": "tags",
  "routes/forum/new-topic": "never",
  "routes/forum/topic": "tags",
  "routes/forum/new-discussion": "never",
  "routes/forum/discussion": "tags",
  "routes/pages/not-found": "never",
};

/** The policy of a route by its id (React Router's: the module's path under app/ without extension). */
export function cachePolicyOf(routeId: string): CachePolicy | undefined {
  return Object.hasOwn(routeCachePolicies, routeId) ? routeCachePolicies[routeId] : undefined;
}
