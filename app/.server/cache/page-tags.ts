import { AsyncLocalStorage } from "node:async_hooks";
import type { CachePolicy } from "./route-policies";

/**
 * What a request read and what it wrote, for the anonymous page cache (issue 13, ADR 0026). A read
 * model names the things a page shows (`readsFrom`), a domain service the things a write changed
 * (`wrote`); the HTTP layer keeps a page only while nothing it read has been written since the
 * request began. Outside a request (scripts, tests of the domain alone) both are no-ops.
 *
 * Tags are short strings built by the helpers below, never by hand, so readers and writers agree.
 */
export interface PageTags {
  reads: Set<string>;
  writes: Set<string>;
  /** Side effects a page's loader has that must still happen when the page is served from memory. */
  onHit?: CachedHitEffect[];
  /** The page cache's own throttled invalidation, for a GET's side effect that changes a page. */
  invalidate?: Invalidate;
  /** The settled session a signed-in page was rendered for (ADR 0040); unset for visitors. */
  viewer?: PageViewer;
  /**
   * What a signed-in member's write changed of their own pages (`tag.viewer`). Kept apart from
   * `writes` so that a write naming nothing public still means "everything".
   */
  viewerWrites?: Set<string>;
  /**
   * A write request's route handlers (middleware, loaders, the action) still running, and what the
   * page cache does once none is (ADR 0026). React Router stops waiting for a handler when the
   * client goes away, but the handler goes on and may commit its transaction later. `ran` says
   * whether any began; `action` how the action ended: "done" (it returned, or threw a redirect) or
   * "refused" (it threw, or answered with a status of 400 or more), so a write with no head to
   * tell its status by is judged by what its action did.
   */
  handlers?: { running: number; ran: boolean; action?: "done" | "refused"; idle?: () => void };
  /**
   * The route React Router runs for this request and its cache policy (route-policies.ts), set when
   * the app hands the request over: a page is kept only by its route's policy. Unset before that
   * (the front's own answers, health checks, files), and the policy unset for a route missing from
   * the table.
   */
  route?: { id: string | undefined; policy: CachePolicy | undefined };
  /**
   * The cache audit's record (PAGE_CACHE_AUDIT, ADR 0051), set only while it is on: the tables the
   * request's SQL read, changed (updated, deleted) and inserted into, and the tags a GET said its
   * side effects changed (`changedByRead`).
   */
  audit?: { read: Set<string>; wrote: Set<string>; inserted: Set<string>; changedByRead: Set<string> };
}

/**
 * The session behind a signed-in page, for the member page cache (ADR 0040): a stored page is
 * answered again only for the same Cookie header, while this session still exists with the same
 * `fingerprint` (its expiry and the member's row as the page read them), and before `until`.
 */
export interface PageViewer {
  memberId: string;
  token: string;
  fingerprint: string;
  /** When the session expires or is due for its refresh, whichever is first (ms since the epoch). */
  until: number;
}

/**
 * Drops the cached pages that read these tags, for a change that is not a write request of its
 * own (a question's view counted by a GET): at once, then at most once per short window per tag,
 * so a busy page still stays cached between counts.
 */
export type Invalidate = (tags: string[]) => void;

/** What the page cache knows of a request it answers from memory (no cookie: always a visitor). */
export interface CachedHit {
  clientIp: string;
  invalidate?: Invalidate;
}
export type CachedHitEffect = (hit: CachedHit) => void;

const storage = new AsyncLocalStorage<PageTags>();

/** Runs `fn` with a fresh set of tags for one request. */
export function withPageTags<T>(tags: PageTags, fn: () => T): T {
  return storage.run(tags, fn);
}

/**
 * Runs `fn`, and whatever it schedules, outside any request: work a request only sets off (the
 * outbox worker woken by a queued mail, with its periodic jobs) is not the request's, and what it
 * reads and writes must not be counted as the request's (ADR 0051's audit) or bump its tags.
 */
export function outsideRequest<T>(fn: () => T): T {
  return storage.exit(fn);
}

export function currentPageTags(): PageTags | undefined {
  return storage.getStore();
}

export function readsFrom(...tags: string[]) {
  const store = storage.getStore();
  if (store) for (const tag of tags) store.reads.add(tag);
}

export function wrote(...tags: string[]) {
  const store = storage.getStore();
  if (store) for (const tag of tags) store.writes.add(tag);
}

/** The page being rendered is this member's own (a settled session): see `PageViewer`. */
export function readsAsViewer(viewer: PageViewer) {
  const store = storage.getStore();
  if (!store) return;
  // Not a read tag of its own: a page that declared nothing it reads is still never kept.
  store.viewer = viewer;
}

/**
 * A signed-in member's request that may write: whatever it changes of their own (an RSVP, a like,
 * a check-in, their session) drops the pages kept for them, on every device.
 */
export function writesAsViewer(memberId: string) {
  const store = storage.getStore();
  if (store) (store.viewerWrites ??= new Set()).add(tag.viewer(memberId));
}

/**
 * Registers what must happen again each time this page is served from the cache, for a loader
 * whose request has a side effect (a question's view count). Runs after the response is sent; it
 * must not throw and should not be slow.
 */
export function onCachedHit(effect: CachedHitEffect) {
  const store = storage.getStore();
  if (store) (store.onHit ??= []).push(effect);
}

/**
 * A GET's side effect changed what these tags' pages show (a view counted): the page cache drops
 * them soon (ADR 0026). A GET's `wrote` never invalidates anything; this is the one way it may.
 * Works after the response too: the request's context follows its promises.
 */
export function changedByRead(...tags: string[]) {
  const store = storage.getStore();
  if (store?.audit) for (const tag of tags) store.audit.changedByRead.add(tag);
  store?.invalidate?.(tags);
}

/**
 * Says a successful write changed nothing an anonymous page shows (signing in, a newsletter
 * subscription). Without any `wrote` call a successful write invalidates every page (`tag.site`).
 */
export function wroteNothingPublic() {
  wrote(tag.nothing);
}

export const tag = {
  /** Marks a write that changed nothing public; never read by a page. */
  nothing: "-",
  /** Everything: a write no finer tag describes. */
  site: "site",
  section: (section: string) => `section:${section}`,
  topic: (topicId: string) => `topic:${topicId}`,
  discussion: (discussionId: number) => `discussion:${discussionId}`,
  council: "council",
  question: (questionId: number) => `question:${questionId}`,
  forge: "forge",
  creation: (creationId: number) => `creation:${creationId}`,
  /**
   * The related posts a discussion, question or creation page lists (issue 30), from the search
   * index: moved when a post of that area is written, edited, deleted, hidden or restored, never by
   * a reply, answer or comment. A Forum section is an area of its own.
   */
  related: (area: string) => `related:${area}`,
  events: "events",
  event: (eventId: number) => `event:${eventId}`,
  challenges: "challenges",
  challenge: (challengeId: number) => `challenge:${challengeId}`,
  /** A member's name, avatar, rank or profile, shown wherever they are an author. */
  member: (memberId: string) => `member:${memberId}`,
  /**
   * What only a member's profile page shows: their exact XP, virtue levels, counts and latest posts.
   * Kept apart from `member` so that a like or a new post does not invalidate every page the
   * member appears on as an author.
   */
  profile: (memberId: string) => `profile:${memberId}`,
  /**
   * Everything a member's own pages show of them alone (their RSVPs, likes, votes, check-ins,
   * controls): read by every page kept for them, written by each of their writes (ADR 0040).
   */
  viewer: (memberId: string) => `viewer:${memberId}`,
  /**
   * How far a member has read (issue 28): the "3 new" on their lists and where a discussion resumes.
   * Moved by their reading (a GET), so kept apart from `viewer`: opening a discussion drops only the
   * member's pages that show what is new, not all of them.
   */
  unread: (memberId: string) => `unread:${memberId}`,
};
