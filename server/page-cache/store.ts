import { createHash } from "node:crypto";
import { brotliCompress, brotliCompressSync, brotliDecompress, brotliDecompressSync, constants as zlibConstants, gzip, gzipSync } from "node:zlib";
import { tag, type CachedHitEffect, type PageViewer } from "~/.server/cache/page-tags";
import type { Encoding } from "../http-encoding";

/**
 * The page cache (issue 13, ADR 0026): the HTTP server asks it before Express sees a request. A
 * logged-out reader's GET is answered from memory with compressed bytes kept; everything else goes to
 * the app. A page is kept only while nothing it read (its read tags) has been written since its
 * request began; a short TTL is the safety net for writes no tag describes.
 *
 * A signed-in member's pages are kept too, for that member's exact Cookie header only (ADR 0040):
 * besides the page's tags, each reads `tag.viewer` (every write of theirs), and each answer from
 * memory first checks that the session still exists with the same fingerprint.
 */

export interface PageCacheOptions {
  /** The safety net: no entry is served older than this. */
  ttlMs: number;
  /** LRU bound on the bytes kept (all three encodings counted). */
  maxBytes: number;
  /** The largest identity body stored. */
  maxEntryBytes?: number;
  /** How many written tags it remembers before it forgets those no stored page needs (see `forget`). */
  maxWrittenTags?: number;
  now?: () => number;
}

export interface CachedPage {
  key: string;
  status: number;
  /** Headers to replay, lower-case names; CSP, ETag, Vary and Cache-Control included. */
  headers: Record<string, string>;
  /**
   * Brotli and gzip each made when first asked for; identity until brotli is made (most clients ask
   * for it), then made again from brotli whenever a client asks for identity or gzip: a kept page
   * takes a fifth of the memory (an 80 KB page, 15 KB), so the same budget keeps five times the pages.
   */
  bodies: Partial<Record<Encoding, Buffer>>;
  /** The encodings made at the quick level for the miss's own answer, to be made again at the kept one once read often. */
  quick?: Set<Exclude<Encoding, "identity">>;
  /** Hits served since it was kept, counted only while some encoding is still at the quick level. */
  hits?: number;
  /** The strong validator of the identity bytes; the compressed variants add a suffix. */
  etag: string;
  reads: string[];
  /** Run on every hit (after the answer is sent): the loader's side effects, such as a view count. */
  onHit: CachedHitEffect[];
  startSeq: number;
  storedAt: number;
  bytes: number;
  /** Set for a member's page: kept for the session it was rendered for only. */
  viewer?: PageViewer;
  /** The route that rendered it, for the operators' metrics (issue 33). */
  route?: string;
}

/**
 * Kept pages are compressed per encoding when a client first asks for it, at levels whose cost is
 * about a millisecond or two for a 100 KB page (issue 29, ADR 0060): brotli 9 took 30–125 ms of the
 * event loop for 1–2% fewer bytes than 5, and under churn most pages are dropped before a second read.
 */
const BROTLI_QUALITY = 5;
const GZIP_LEVEL = 6;
/**
 * The miss's own answer is compressed at the quickest levels (brotli 1 in 0.8 ms against 2.4 ms for
 * an 80 KB page, 24% more bytes): most misses under the mix are a page's first and only reader
 * (bench:mix counts them). A page read often makes the kept level, off the event loop.
 */
const QUICK_BROTLI_QUALITY = 1;
const QUICK_GZIP_LEVEL = 1;
/**
 * Hits a page takes before its quick bytes are made again at the kept level (ADR 0060, addendum of
 * 6 Dec). Made on the first hit, the kept level cost the mix a third of its CPU: most kept pages are
 * read a few times before a write drops them, and each making is a decode and an encode (about 3 ms
 * of a core for 80 KB) to save a fifth of bytes few readers then get. A page read this often is one
 * of the hot ones, which stay and are read thousands of times.
 */
export const RECOMPRESS_AFTER_HITS = 8;

/** How often a read's side effect (a view count) may drop the pages that show it. */
const SOON_WINDOW_MS = 2000;
const SOON_MAX = 10_000;

export class PageCache {
  readonly ttlMs: number;
  readonly maxBytes: number;
  readonly maxEntryBytes: number;
  private readonly maxWrittenTags: number;
  private readonly now: () => number;
  /** Insertion order is recency order: a hit moves its entry to the end. */
  private readonly entries = new Map<string, CachedPage>();
  private bytes = 0;
  private seq = 0;
  private siteWrite = 0;
  private readonly lastWrite = new Map<string, number>();
  private readonly listeners: Array<(tags: string[]) => void> = [];
  /** While false (the invalidation bus lost its connection) nothing is served or stored. */
  private trusted = true;

  constructor(options: PageCacheOptions) {
    this.ttlMs = options.ttlMs;
    this.maxBytes = options.maxBytes;
    this.maxEntryBytes = options.maxEntryBytes ?? 1024 * 1024;
    this.maxWrittenTags = options.maxWrittenTags ?? 50_000;
    this.now = options.now ?? Date.now;
  }

  /** The write sequence now: a request remembers it when it begins. */
  sequence() {
    return this.seq;
  }

  get size() {
    return this.entries.size;
  }

  get storedBytes() {
    return this.bytes;
  }

  /** How many written tags it remembers (bounded by `maxWrittenTags`). */
  get writtenTags() {
    return this.lastWrite.size;
  }

  get enabled() {
    return this.trusted;
  }

  /**
   * Stops serving and storing (false) until told again (true). The invalidation bus says false
   * when it cannot hear other instances' writes; on true it has already bumped `site`.
   */
  setTrusted(trusted: boolean) {
    this.trusted = trusted;
  }

  /** Called with the tags of every local write (the invalidation bus publishes them). */
  onLocalWrite(listener: (tags: string[]) => void) {
    this.listeners.push(listener);
  }

  /**
   * Records a write of `tags`: empty means everything, `tag.nothing` alone means nothing public.
   * `local` writes are also published to the other instances.
   */
  bump(tags: Iterable<string>, { local = true } = {}) {
    const given = [...tags];
    if (PageCache.changesNothing(given)) return;
    const list = given.filter((t) => t !== tag.nothing);
    const seq = ++this.seq;
    const all = list.length === 0 || list.includes(tag.site);
    if (all) {
      this.siteWrite = seq;
      // Nothing older can be valid any more: drop it now rather than on the next lookup.
      this.entries.clear();
      this.bytes = 0;
      this.lastWrite.clear();
    } else {
      for (const t of list) this.lastWrite.set(t, seq);
      if (this.lastWrite.size > this.maxWrittenTags) this.forget();
    }
    if (local) for (const listener of this.listeners) listener(all ? [tag.site] : list);
  }

  /**
   * Every distinct tag written (each discussion, reply author, question…) would otherwise stay in
   * `lastWrite` for the life of the process. A write only matters to pages whose request began
   * before it, so writes no older than the oldest live page are forgotten, and `siteWrite` moves up
   * to that point: a request that began earlier and has not stored yet is refused, as after a
   * site-wide write, instead of being stored without the writes it can no longer be checked against.
   * When that frees too little (an old page pins them), everything is dropped as on a site write.
   */
  private forget() {
    const now = this.now();
    let oldest = this.seq;
    for (const [key, entry] of this.entries) {
      if (now - entry.storedAt >= this.ttlMs) this.delete(key);
      else if (entry.startSeq < oldest) oldest = entry.startSeq;
    }
    let kept = 0;
    for (const written of this.lastWrite.values()) if (written > oldest) kept++;
    const cut = kept > this.maxWrittenTags / 2 ? this.seq : oldest;
    if (cut === this.seq) this.clear();
    for (const [t, written] of this.lastWrite) if (written <= cut) this.lastWrite.delete(t);
    this.siteWrite = Math.max(this.siteWrite, cut);
  }

  private readonly soon = new Map<string, { at: number; trailing: boolean }>();

  /**
   * A throttled bump for changes made by reads (a question's view count): the first bumps at once,
   * later ones within `windowMs` of it are folded into one bump at the window's end. A page that
   * shows a count stays cached between counts instead of being dropped by every new visitor.
   */
  bumpSoon(tags: string[], windowMs = SOON_WINDOW_MS) {
    const now = this.now();
    const due: string[] = [];
    for (const t of tags) {
      const last = this.soon.get(t);
      if (!last || now - last.at >= windowMs) {
        this.soon.set(t, { at: now, trailing: false });
        due.push(t);
      } else if (!last.trailing) {
        last.trailing = true;
        const timer = setTimeout(
          () => {
            this.soon.set(t, { at: this.now(), trailing: false });
            this.bump([t]);
          },
          windowMs - (now - last.at),
        );
        timer.unref();
      }
    }
    if (this.soon.size > SOON_MAX) for (const [t, v] of this.soon) if (!v.trailing && now - v.at >= windowMs) this.soon.delete(t);
    if (due.length > 0) this.bump(due);
  }

  /** True when the local write said it changed nothing public (only `tag.nothing`). */
  static changesNothing(tags: Iterable<string>) {
    const list = [...tags];
    return list.length > 0 && list.every((t) => t === tag.nothing);
  }

  isValid(entry: CachedPage) {
    const now = this.now();
    if (now - entry.storedAt >= this.ttlMs) return false;
    if (entry.viewer && now >= entry.viewer.until) return false;
    if (this.siteWrite > entry.startSeq) return false;
    for (const t of entry.reads) {
      if (t === tag.site) continue;
      if ((this.lastWrite.get(t) ?? 0) > entry.startSeq) return false;
    }
    return true;
  }

  get(key: string): CachedPage | undefined {
    if (!this.trusted) return undefined;
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (!this.isValid(entry)) {
      this.delete(key);
      return undefined;
    }
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry;
  }

  /**
   * Stores a page read by a request that began at `startSeq`, unless a write it read came in
   * meanwhile (then it is already stale) or it is too big. Returns the entry when stored.
   */
  set(input: {
    key: string;
    status: number;
    headers: Record<string, string>;
    body: Buffer;
    reads: Iterable<string>;
    onHit?: CachedHitEffect[];
    startSeq: number;
    viewer?: PageViewer;
    route?: string;
  }): CachedPage | undefined {
    if (!this.trusted) return undefined;
    if (input.body.length > this.maxEntryBytes) return undefined;
    const reads = [...new Set(input.reads)];
    if (input.viewer) reads.push(tag.viewer(input.viewer.memberId));
    const identity = ownBytes(input.body);
    // Only the encodings clients ask for are made, one at a time (`body`): a page dropped by the
    // next write before its second reader cost no compression it did not need.
    const bodies: CachedPage["bodies"] = { identity };
    const entry: CachedPage = {
      key: input.key,
      status: input.status,
      headers: input.headers,
      bodies,
      etag: "",
      reads,
      onHit: input.onHit ?? [],
      startSeq: input.startSeq,
      storedAt: this.now(),
      bytes: identity.length + input.key.length,
      viewer: input.viewer,
      route: input.route,
    };
    if (!this.isValid(entry)) return undefined;
    if (entry.bytes > this.maxBytes) return undefined;
    // Hashed only once it is kept: a member's discussion records a read marker, a write its own
    // page read, so it is refused above, and hashing 100 KB cost it 0.15 ms for nothing.
    entry.etag = createHash("sha256").update(identity).digest("base64url").slice(0, 27);
    this.delete(input.key);
    this.entries.set(input.key, entry);
    this.bytes += entry.bytes;
    this.evict();
    return entry;
  }

  /** Drops the least recently used pages until the bytes kept are within bounds. */
  private evict() {
    for (const [oldest, old] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= old.bytes;
    }
  }

  /**
   * The entry's bytes in this encoding, made now if it has none yet: at the quick level for the
   * miss that stored it (`quick`), else at the kept one. A hit on bytes made quick has them made
   * again at the kept level on zlib's thread pool, and served once they are ready.
   */
  body(entry: CachedPage, encoding: Encoding, { quick = false } = {}): Buffer {
    if (encoding === "identity") return identityOf(entry);
    const kept = entry.bodies[encoding];
    if (kept) {
      if (!quick && entry.quick?.has(encoding) && (entry.hits = (entry.hits ?? 0) + 1) >= RECOMPRESS_AFTER_HITS) {
        entry.quick.delete(encoding);
        this.recompress(entry, encoding);
      }
      return kept;
    }
    const made = ownBytes(compress(identityOf(entry), encoding, quick));
    if (quick) (entry.quick ??= new Set()).add(encoding);
    this.replaceBody(entry, encoding, made);
    return made;
  }

  private recompress(entry: CachedPage, encoding: Exclude<Encoding, "identity">) {
    const done = (error: Error | null, made: Buffer) => {
      if (!error && entry.bodies[encoding]) this.replaceBody(entry, encoding, ownBytes(made));
    };
    const from = (identity: Buffer) => {
      if (encoding === "br") brotliCompress(identity, brotliOptions(identity, false), done);
      else gzip(identity, { level: GZIP_LEVEL }, done);
    };
    // Off the event loop from end to end: the identity bytes too, when only brotli is kept.
    if (entry.bodies.identity) from(entry.bodies.identity);
    else brotliDecompress(entry.bodies.br!, (error, identity) => (error ? undefined : from(identity)));
  }

  /**
   * Sets an encoding's bytes, counted only while the entry is still the one kept under its key;
   * brotli made, the identity bytes are let go (they can be made again from it).
   */
  private replaceBody(entry: CachedPage, encoding: Exclude<Encoding, "identity">, made: Buffer) {
    let change = made.length - (entry.bodies[encoding]?.length ?? 0);
    entry.bodies[encoding] = made;
    if (encoding === "br" && entry.bodies.identity) {
      change -= entry.bodies.identity.length;
      delete entry.bodies.identity;
    }
    if (this.entries.get(entry.key) === entry) {
      entry.bytes += change;
      this.bytes += change;
      this.evict();
    }
  }

  /** Drops this entry if it is still the one kept under its key (not a newer page's). */
  dropEntry(entry: CachedPage) {
    if (this.entries.get(entry.key) === entry) this.delete(entry.key);
  }

  delete(key: string) {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.bytes -= entry.bytes;
  }

  clear() {
    this.entries.clear();
    this.bytes = 0;
  }
}

function brotliOptions(identity: Buffer, quick: boolean) {
  return {
    params: {
      [zlibConstants.BROTLI_PARAM_QUALITY]: quick ? QUICK_BROTLI_QUALITY : BROTLI_QUALITY,
      [zlibConstants.BROTLI_PARAM_SIZE_HINT]: identity.length,
    },
  };
}

/**
 * Milliseconds the event loop has spent compressing and decoding pages since the process began
 * (the metrics' page_cache_zlib_seconds_total; bench:mix prints it per request, issue 29).
 */
let zlibOnLoopMs = 0;
export const zlibOnLoopSeconds = () => zlibOnLoopMs / 1000;

function timed<T>(work: () => T): T {
  const started = performance.now();
  try {
    return work();
  } finally {
    zlibOnLoopMs += performance.now() - started;
  }
}

function compress(identity: Buffer, encoding: Exclude<Encoding, "identity">, quick: boolean) {
  return timed(() =>
    encoding === "br" ? brotliCompressSync(identity, brotliOptions(identity, quick)) : gzipSync(identity, { level: quick ? QUICK_GZIP_LEVEL : GZIP_LEVEL }),
  );
}

/** A page's bytes in this encoding at the quick level: a miss's answer, and a page not kept (capture.ts). */
export function quickCompress(identity: Buffer, encoding: Exclude<Encoding, "identity">) {
  return compress(identity, encoding, true);
}

/**
 * The bytes in memory of their own, copied when they are a view of a larger allocation: zlib's
 * synchronous calls answer with a slice of their 64 KiB output chunk, and small Buffers are slices
 * of Node's shared 8 KiB pool, so a kept 15 KB page held 64 KiB (and a 1 KB one a whole chunk or
 * slab). The budget counts a page's length: kept that way, it is what the page costs (issue 29).
 */
export function ownBytes(bytes: Buffer): Buffer {
  if (bytes.byteOffset === 0 && bytes.buffer.byteLength === bytes.length) return bytes;
  const own = Buffer.allocUnsafeSlow(bytes.length);
  bytes.copy(own);
  return own;
}

/** The page's own bytes: kept until brotli is made, then decoded from it (0.2 ms for 80 KB). */
function identityOf(entry: CachedPage): Buffer {
  return entry.bodies.identity ?? timed(() => brotliDecompressSync(entry.bodies.br!));
}
