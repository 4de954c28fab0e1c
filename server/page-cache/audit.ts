import fs from "node:fs";
import type { Request, Response } from "express";
import type { QueryObserver } from "~/.server/db/connect";
import { currentPageTags, tag, type PageTags } from "~/.server/cache/page-tags";
import type { CachePolicy } from "~/.server/cache/route-policies";
import { isShownInsert, isShownTable, needsReadTag, TABLES, tagCovers } from "~/.server/cache/tag-coverage";

/**
 * The page cache's audit (issue 27, ADR 0051): checks the tags a request declared against the SQL
 * the database actually ran for it, and records every page that could go stale and every write that
 * would leave one stale. On in the tests and the browser suites (PAGE_CACHE_AUDIT), off in
 * production, where nothing of it is installed.
 */

export type AuditRule =
  /** (a) A page was kept though it read a table none of its read tags covers. */
  | "kept page read an uncovered table"
  /** (c) A page was kept whose route declares no cache policy. */
  | "kept page of a route without a policy"
  /** (b) A successful write changed a shown table and named no tag covering it. */
  | "write named no tag for a table"
  /** (c) A GET or HEAD changed a shown table and `changedByRead` named no tag covering it. */
  | "read wrote without changedByRead";

export interface AuditViolation {
  rule: AuditRule;
  method: string;
  path: string;
  /** The tables at fault. */
  tables: string[];
  /** The tags the request declared for them (read tags for a kept page, else what it wrote). */
  tags: string[];
}

interface Kept {
  method: string;
  path: string;
  /** The tables the request's SQL read. */
  read: Iterable<string>;
  /** The tags the page was kept under (its route's policy applied, the member's own included). */
  reads: Iterable<string>;
  policy: CachePolicy | undefined;
}

/**
 * Rules (a) and the second half of (c), for a page the cache has just kept. `site` covers no table
 * here: a page kept under it is dropped only by a site-wide write, so any table it reads must have
 * a finer tag of its own (a "static" page should read none).
 */
export function keptPageViolations(page: Kept): AuditViolation[] {
  const found: AuditViolation[] = [];
  const reads = [...page.reads];
  if (page.policy === undefined) found.push({ rule: "kept page of a route without a policy", method: page.method, path: page.path, tables: [], tags: reads });
  const uncovered = [...new Set(page.read)].filter((table) => needsReadTag(table) && !reads.some((t) => tagCovers(t, table)));
  if (uncovered.length > 0)
    found.push({ rule: "kept page read an uncovered table", method: page.method, path: page.path, tables: uncovered.sort(), tags: reads });
  return found;
}

interface Changed {
  method: string;
  path: string;
  /** The tables the request's SQL updated or deleted from (a statement that changed no row does not count). */
  wrote: Iterable<string>;
  /** The tables it inserted into. */
  inserted?: Iterable<string>;
  writes: Iterable<string>;
  viewerWrites?: Iterable<string>;
  changedByRead?: Iterable<string>;
}

/**
 * Rule (b) for a successful write, and the first half of (c) for a GET or HEAD. A write that named
 * nothing drops every page (`site`), which covers every table; `-` alone (`wroteNothingPublic`)
 * covers none. A GET's `wrote` drops nothing (ADR 0026): only `changedByRead` counts for it.
 */
export function writeViolations(request: Changed): AuditViolation[] {
  const shown = [...new Set([...[...request.wrote].filter(isShownTable), ...[...(request.inserted ?? [])].filter(isShownInsert)])].sort();
  if (shown.length === 0) return [];
  const { method, path } = request;
  if (method === "GET" || method === "HEAD") {
    const named = [...(request.changedByRead ?? [])];
    const uncovered = shown.filter((table) => !named.some((t) => tagCovers(t, table)));
    return uncovered.length > 0 ? [{ rule: "read wrote without changedByRead", method, path, tables: uncovered, tags: named }] : [];
  }
  const writes = [...request.writes];
  if (writes.length === 0 || writes.includes(tag.site)) return [];
  // `changedByRead` drops its tags whatever the method (soon rather than at the answer).
  const named = [...writes, ...(request.viewerWrites ?? []), ...(request.changedByRead ?? [])];
  const uncovered = shown.filter((table) => !named.some((t) => tagCovers(t, table)));
  return uncovered.length > 0 ? [{ rule: "write named no tag for a table", method, path, tables: uncovered, tags: named }] : [];
}

/** Names SQL keeps for tables after these words; `delete from` and `into` change them. */
const TABLE_AFTER = /\b(delete\s+from|from|join|into|update)\s+((?:"[^"]+"|[a-z_][\w$]*)(?:\s*\.\s*(?:"[^"]+"|[a-z_][\w$]*))?)/g;
/** A common table expression's name (`with recent as (`, `, counts as (`), which is no table. */
const CTE_NAME = /(?:\bwith(?:\s+recursive)?|,)\s*("[^"]+"|[a-z_][\w$]*)\s+as\s*(?:not\s+)?(?:materialized\s+)?\(/g;
/** `from` inside a function's arguments: extract(epoch from x), substring(x from 2), trim(both from x). */
const FROM_IN_CALL = /\b(extract|substring|trim|overlay|position)\s*\(([^()]*?)\bfrom\b/g;

const parsed = new Map<string, { read: string[]; wrote: string[]; inserted: string[] }>();

/**
 * The schema's tables a statement reads and changes, from its text: quoted or not, schema-qualified
 * or not; string literals, function arguments, CTE names and names that are no table of the schema
 * left out. Kept per text: statements repeat.
 */
export function sqlTables(sql: string): { read: string[]; wrote: string[]; inserted: string[] } {
  const known = parsed.get(sql);
  if (known) return known;
  const text = sql
    .toLowerCase()
    .replace(/'(?:[^']|'')*'/g, "''")
    .replace(FROM_IN_CALL, "$1($2");
  const ctes = new Set([...text.matchAll(CTE_NAME)].map((m) => unquote(m[1]!)));
  const read = new Set<string>();
  const wrote = new Set<string>();
  const inserted = new Set<string>();
  for (const [, keyword, name] of text.matchAll(TABLE_AFTER)) {
    const table = unquote(name!.split(".").at(-1)!.trim());
    // `do update set`, `for update of`, `join lateral`: words after the keyword that name no table.
    if (ctes.has(table) || !Object.hasOwn(TABLES, table)) continue;
    (keyword === "from" || keyword === "join" ? read : keyword === "into" ? inserted : wrote).add(table);
  }
  // An upsert (`on conflict do update`, `insert or replace`) may change a row that was there.
  if (/\bon\s+conflict\b[^;]*\bdo\s+update\b|\binsert\s+or\s+replace\b|\breplace\s+into\b/.test(text)) for (const table of inserted) wrote.add(table);
  const result = { read: [...read], wrote: [...wrote], inserted: [...inserted] };
  if (parsed.size >= 5000) parsed.clear();
  parsed.set(sql, result);
  return result;
}

function unquote(name: string) {
  return name.startsWith('"') ? name.slice(1, -1) : name;
}

interface Tracked {
  method: string;
  path: string;
  res: Response;
  tags: PageTags;
  closed: boolean;
  /** Its statements sent and not yet ended: a transaction's next one follows the last at once. */
  inflight: number;
  timer?: NodeJS.Timeout;
  reported: Set<string>;
}

/** How long after its answer a request's writes are judged: a GET's side effect may come later. */
const GRACE_MS = 300;

export interface AuditOptions {
  /** Appends each violation as a JSON line (the browser suites' teardown reads it). */
  file?: string;
  onViolation?: (violation: AuditViolation) => void;
}

/**
 * One site's audit: `observer` goes on the database's query observers, `begin` on each request
 * (pageTagsMiddleware), `pageKept` on each page the cache keeps (pageCapture).
 */
export class CacheAudit {
  readonly violations: AuditViolation[] = [];
  private readonly tracked = new WeakMap<PageTags, Tracked>();
  private readonly pending = new Set<Tracked>();
  private inflight = 0;

  constructor(private readonly options: AuditOptions = {}) {}

  /** Records the tables of each statement on the request that sent it (its async context). */
  readonly observer: QueryObserver = (query) => {
    const tags = currentPageTags();
    const record = tags?.audit;
    if (!record) return;
    // A statement of no table (a transaction's COMMIT) still counts as in flight: what its caller
    // does once it ends (a view's changedByRead after the commit) must be waited for.
    const { read, wrote, inserted } = sqlTables(query.sql);
    const tracked = this.tracked.get(tags);
    this.inflight++;
    if (tracked) tracked.inflight++;
    return (result) => {
      this.inflight--;
      if (tracked) tracked.inflight--;
      // A read that found no row showed nothing of a table whose new rows no page can show (a
      // list with no discussion read no author); of any other table it showed an absence, which
      // an insert would change.
      const found = result !== undefined && result.rows.length > 0;
      for (const table of read) if (found || isShownInsert(table)) record.read.add(table);
      // A statement that changed no row (a conflict left alone, a failure) changed nothing shown.
      const changed = result !== undefined && (wrote.length > 0 || inserted.length > 0) && (result.numAffectedRows ?? BigInt(result.rows.length)) > 0n;
      if (changed) {
        for (const table of wrote) record.wrote.add(table);
        for (const table of inserted) record.inserted.add(table);
      }
      // A write after the answer (an action its client left, a view counted), or the last statement
      // of a request waiting to be judged: judged (again) once it has none in flight.
      if (tracked?.closed && (changed || this.pending.has(tracked))) this.schedule(tracked);
    };
  };

  /** Starts recording a request; its writes are judged shortly after its answer. */
  begin(req: Request, res: Response, tags: PageTags) {
    tags.audit = { read: new Set(), wrote: new Set(), inserted: new Set(), changedByRead: new Set() };
    const tracked: Tracked = { method: req.method, path: req.originalUrl, res, tags, closed: false, inflight: 0, reported: new Set() };
    this.tracked.set(tags, tracked);
    res.once("close", () => {
      tracked.closed = true;
      this.schedule(tracked);
    });
  }

  /** Checks a page the cache has just kept under `reads`. */
  pageKept(req: Request, tags: PageTags, reads: Iterable<string>) {
    const tracked = this.tracked.get(tags);
    if (!tags.audit) return;
    const found = keptPageViolations({ method: req.method, path: req.originalUrl, read: tags.audit.read, reads, policy: tags.route?.policy });
    for (const violation of found) this.report(violation, tracked);
  }

  private schedule(tracked: Tracked) {
    clearTimeout(tracked.timer);
    this.pending.add(tracked);
    tracked.timer = setTimeout(() => this.judge(tracked), GRACE_MS);
    tracked.timer.unref();
  }

  private judge(tracked: Tracked, force = false) {
    clearTimeout(tracked.timer);
    // Mid-transaction (a view inserted, its count not yet moved): the statement's end judges again.
    if (tracked.inflight > 0 && !force) return;
    this.pending.delete(tracked);
    const { tags, res, method } = tracked;
    if (!tags.audit) return;
    const reading = method === "GET" || method === "HEAD";
    // A refused write (4xx, 5xx, or an action that refused with no head to tell) changed nothing.
    if (!reading && (res.statusCode >= 400 || tags.handlers?.action === "refused")) return;
    const found = writeViolations({
      method,
      path: tracked.path,
      wrote: tags.audit.wrote,
      inserted: tags.audit.inserted,
      writes: tags.writes,
      viewerWrites: tags.viewerWrites,
      changedByRead: tags.audit.changedByRead,
    });
    for (const violation of found) this.report(violation, tracked);
  }

  private report(violation: AuditViolation, tracked: Tracked | undefined) {
    const key = `${violation.rule} ${violation.tables.join(",")}`;
    if (tracked?.reported.has(key)) return;
    tracked?.reported.add(key);
    this.violations.push(violation);
    if (this.options.file) fs.appendFileSync(this.options.file, JSON.stringify(violation) + "\n");
    this.options.onViolation?.(violation);
  }

  /** Waits for the statements in flight, then judges every request not judged yet (at a site's close). */
  async flush() {
    for (let waited = 0; this.inflight > 0 && waited < 5000; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10));
    // What a finished statement's callers do next (a view's changedByRead) runs before this.
    await new Promise((resolve) => setImmediate(resolve));
    for (const tracked of [...this.pending]) this.judge(tracked, true);
  }
}

/** The violations as a readable list, one a line. */
export function describeViolations(violations: readonly AuditViolation[]) {
  return violations.map((v) => `${v.rule}: ${v.method} ${v.path} tables [${v.tables.join(", ")}] tags [${v.tags.join(", ")}]`).join("\n");
}
