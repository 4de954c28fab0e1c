/**
 * The page cache (issue 13, ADR 0026, members' pages ADR 0040), in four parts: the store of kept
 * pages and their invalidation (store.ts), the node:http front that answers from it (front.ts), the
 * Express middleware that gives each request its tags and bumps after a write (tag-middleware.ts),
 * the capture that keeps a page the app rendered (capture.ts), and the audit of their tags against
 * the SQL each request ran (audit.ts, ADR 0051).
 */
export { PageCache, zlibOnLoopSeconds, type CachedPage, type PageCacheOptions } from "./store";
export { eligibility, etagFor, isCacheCandidate, memberKey, notModified, pageCacheFront, pickEncoding, sendCached, type FrontOptions } from "./front";
export { countWriteHandlers, pageTagsMiddleware } from "./tag-middleware";
export { inlineScriptHashes, pageCapture } from "./capture";
export { CacheAudit, describeViolations, type AuditViolation } from "./audit";
