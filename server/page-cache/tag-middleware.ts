import type { NextFunction, Request, Response } from "express";
import type { ServerBuild } from "react-router";
import { currentPageTags, tag, withPageTags, type PageTags } from "~/.server/cache/page-tags";
import { mapRouteHandlers, type RouteHandler, type WrapRouteHandler } from "../route-handlers";
import type { CacheAudit } from "./audit";
import { PageCache } from "./store";

/**
 * Near the top of the Express app: gives every request its read and write tags, and after a
 * successful write (any method but GET/HEAD, status < 400, redirects included) bumps what it wrote.
 * The bump comes when the response head is written: the action (and its transaction) has finished
 * by then, and no byte of the answer has left, so a client that follows the redirect at once can
 * never be served the page from before its own write.
 *
 * A client that goes away first gets no head. React Router then stops waiting for the action, but
 * the action goes on, and its transaction may commit well after the disconnect: a page rendered in
 * between would read the old rows and be kept until the TTL. So the close bumps only what the write
 * has named so far (a write already committed), never everything: anyone may post anything and go
 * away at once, and most such posts are refused or never reach an action. Each time the request's
 * route handlers have all ended (`countWriteHandlers`), the action's own outcome decides, as the
 * status would have: refused (it threw, or answered 400 or more), nothing; never run, only what
 * was named; done, everything it wrote, or everything when it named nothing. Handlers that ended
 * before the close are judged at the close.
 */
export function pageTagsMiddleware(cache: PageCache | undefined, audit?: CacheAudit) {
  return (req: Request, res: Response, next: NextFunction) => {
    const tags: PageTags = { reads: new Set(), writes: new Set(), invalidate: cache ? (list) => cache.bumpSoon(list) : undefined };
    audit?.begin(req, res, tags);
    if (cache && req.method !== "GET" && req.method !== "HEAD") {
      const handlers: NonNullable<PageTags["handlers"]> = { running: 0, ran: false };
      tags.handlers = handlers;
      const bump = (written: string[]) => {
        // The member's own tag comes on top (ADR 0040).
        if (tags.viewerWrites) written.push(...tags.viewerWrites);
        // An empty list would mean everything to the cache.
        if (written.length === 0 || PageCache.changesNothing(written)) return;
        cache.bump(written);
      };
      // A successful write: naming nothing still means everything.
      const bumpWrites = () => bump(tags.writes.size === 0 ? [tag.site] : [...tags.writes]);
      // A write whose outcome is not known: only what it named, which is never wrong to drop.
      const bumpNamed = () => bump([...tags.writes]);
      const settle = () => {
        if (handlers.action === "done") bumpWrites();
        else if (handlers.action === undefined) bumpNamed();
      };
      let answered = false;
      const answer = () => {
        if (answered) return;
        answered = true;
        // A refused write changed nothing.
        if (res.statusCode >= 400) return;
        bumpWrites();
        // Whatever ends after the answer (an action the client left, or one begun after it left)
        // may have committed since: bump again then.
        handlers.idle = bumpWrites;
      };
      const close = () => {
        if (answered) return;
        answered = true;
        // Without a head the status is still 200 unless set: the write may have committed, or may yet.
        if (res.statusCode >= 400) return;
        if (handlers.ran && handlers.running === 0) settle();
        else bumpNamed();
        handlers.idle = settle;
      };
      const writeHead = res.writeHead;
      res.writeHead = function (this: Response, ...args: unknown[]) {
        if (typeof args[0] === "number") this.statusCode = args[0];
        answer();
        return (writeHead as (...a: unknown[]) => Response).apply(this, args);
      } as Response["writeHead"];
      res.once("close", close);
    }
    withPageTags(tags, next);
  };
}

/** The status an action answered or threw with, when it says one: a Response or `data(…, { status })`. */
function statusOf(value: unknown): number | undefined {
  if (value instanceof globalThis.Response) return value.status;
  // React Router's DataWithResponseInit, as its own `isDataWithResponseInit` tells it.
  if (typeof value === "object" && value !== null && (value as { type?: unknown }).type === "DataWithResponseInit") {
    return (value as { init?: { status?: number } | null }).init?.status;
  }
  return undefined;
}

/** Whether an action's return or throw means it refused the write (see `PageTags.handlers`). */
function refused(outcome: { value: unknown } | { error: unknown }) {
  const status = statusOf("value" in outcome ? outcome.value : outcome.error);
  // A thrown redirect is how an action says it is done; anything else thrown is a failure.
  if ("error" in outcome) return status === undefined || status < 300 || status >= 400;
  return status !== undefined && status >= 400;
}

/** Counts a route handler in its write request's `handlers` while it runs (see `pageTagsMiddleware`). */
const counted: WrapRouteHandler = (handler, kind) => {
  const call = handler as (...args: unknown[]) => unknown;
  const run = async (handlers: NonNullable<PageTags["handlers"]>, args: unknown[]) => {
    handlers.running++;
    handlers.ran = true;
    try {
      const value = await call(...args);
      if (kind === "action") handlers.action = refused({ value }) ? "refused" : "done";
      return value;
    } catch (error) {
      if (kind === "action") handlers.action = refused({ error }) ? "refused" : "done";
      throw error;
    } finally {
      if (--handlers.running === 0) handlers.idle?.();
    }
  };
  // A read (no `handlers`) calls the handler as it was, without another promise on its way.
  const wrapped = (...args: unknown[]) => {
    const handlers = currentPageTags()?.handlers;
    return handlers ? run(handlers, args) : call(...args);
  };
  return Object.assign(wrapped, handler) as unknown as RouteHandler;
};

/**
 * The same server build with every route's loader, action and middleware counted while it runs in
 * a write request, and the action's outcome kept. React Router races each handler against the
 * request's abort signal, so its own answer says nothing about when the handler ends; the
 * handler's own promise does.
 */
export function countWriteHandlers(build: ServerBuild): ServerBuild {
  return mapRouteHandlers(build, counted);
}
