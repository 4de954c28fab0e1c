import { Transform, type TransformCallback } from "node:stream";

/** Bigger than most pages' shell: one chunk carries it, yet a huge page still streams. */
const FLUSH_BYTES = 256 * 1024;

/**
 * A pass-through that joins the writes made in one turn of the event loop into one chunk.
 * React's renderer writes a page in about 2 KB pieces (60 for a 125 KB discussion); each piece
 * then went through the web stream React Router reads, a `res.write` and, for every browser
 * (Accept-Encoding), a zlib job of its own on the thread pool: compression alone took a
 * 2 ms page to 6 ms (issue 13). Joined, the shell goes down as one chunk, and what React streams
 * later (a Suspense boundary resolving) still goes out in the turn it was written.
 */
export function coalescingStream(
  options: {
    final?: (callback: (error?: Error | null) => void) => void;
    /** Rewrites the first chunk pushed (the shell, with the whole head): the social tags. */
    first?: (chunk: Buffer) => Buffer;
  } = {},
) {
  let pending: Buffer[] = [];
  let first = options.first;
  let bytes = 0;
  let scheduled: NodeJS.Immediate | undefined;
  const stream = new Transform({
    transform(chunk: Buffer | string, _encoding: BufferEncoding, callback: TransformCallback) {
      // Counted from the buffer: a string's length is UTF-16 units, and Buffer.concat cuts at `bytes`.
      const buffer = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
      pending.push(buffer);
      bytes += buffer.length;
      if (bytes >= FLUSH_BYTES) push();
      else scheduled ??= setImmediate(push);
      callback();
    },
    flush(callback: TransformCallback) {
      push();
      callback();
    },
    final: options.final,
  });
  function push() {
    if (scheduled) clearImmediate(scheduled);
    scheduled = undefined;
    if (pending.length === 0) return;
    let joined = pending.length === 1 ? pending[0]! : Buffer.concat(pending, bytes);
    pending = [];
    bytes = 0;
    if (first) {
      joined = first(joined);
      first = undefined;
    }
    stream.push(joined);
  }
  return stream;
}
