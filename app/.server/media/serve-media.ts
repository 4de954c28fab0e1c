import { isMediaName } from "~/lib/media";
import type { MediaAccess } from "../domain/forge/media-access";
import type { MediaInfo, MediaStore } from "./media-store";
import { matchesIfNoneMatch } from "../if-none-match";

/**
 * A stored file as an HTTP response (ADR 0020): checked against the generated name pattern before
 * any query; then who may fetch it (the creation that shows it: public while it shows, its author
 * and moderators only while it is hidden, nobody once no creation shows it); a strong ETag (the
 * SHA-256) with 304s; `nosniff` and only the image and audio types the store holds, so nothing
 * served here can render as a page. Audio answers range requests (seeking in a long recording).
 *
 * Caching: a year of `public, immutable` while the creation shows, since a name never gets other
 * bytes; `private, no-cache` while it is hidden, so no shared cache keeps it and the browser asks
 * again (and is refused once the viewer may no longer see it). A refusal is never kept, so a
 * restored creation's files come back at once.
 *
 * Disposition (ADR 0044): images inline; audio inline only for a media element (`Sec-Fetch-Dest:
 * audio` or `video`, which the page's player sends), an attachment for anything else, so opening
 * the address downloads the file instead of showing it as a document.
 */
export async function serveMedia(
  store: MediaStore,
  name: string | undefined,
  request: Request,
  access: (name: string) => Promise<MediaAccess>,
): Promise<Response> {
  if (!isMediaName(name)) return notFound();
  const allowed = await access(name);
  if (allowed === "none") return notFound();
  const info = await store.head(name);
  if (!info || !/^(image|audio)\//.test(info.contentType)) return notFound();
  const etag = `"${info.sha256}"`;
  const audio = info.contentType.startsWith("audio/");
  const headers = new Headers({
    "Content-Type": info.contentType,
    // X-Content-Type-Options: nosniff comes with every response (server/http.ts securityHeaders).
    "Content-Disposition": `${audio && !playedByMediaElement(request) ? "attachment" : "inline"}; filename="${info.name}"`,
    "Cache-Control": allowed === "public" ? "public, max-age=31536000, immutable" : "private, no-cache",
    ETag: etag,
  });
  if (audio) {
    headers.set("Accept-Ranges", "bytes");
    // The disposition follows Sec-Fetch-Dest: a cache must not answer a link with the player's copy.
    headers.set("Vary", "Sec-Fetch-Dest");
  }
  if (matchesIfNoneMatch(request.headers.get("if-none-match"), etag)) return new Response(null, { status: 304, headers });

  const range = request.headers.get("range");
  if (audio && range && (!request.headers.has("if-range") || request.headers.get("if-range") === etag)) {
    const wanted = parseRange(range, info.byteSize);
    if (wanted === "unsatisfiable") {
      headers.set("Content-Range", `bytes */${info.byteSize}`);
      return new Response(null, { status: 416, headers });
    }
    if (wanted) {
      const part = await store.getRange(name, wanted.start, wanted.end);
      if (!part) return notFound();
      headers.set("Content-Range", `bytes ${wanted.start}-${wanted.end}/${info.byteSize}`);
      headers.set("Content-Length", String(part.byteLength));
      return new Response(request.method === "HEAD" ? null : body(part), { status: 206, headers });
    }
  }
  return whole(store, info, headers, request.method === "HEAD");
}

async function whole(store: MediaStore, info: MediaInfo, headers: Headers, head: boolean) {
  headers.set("Content-Length", String(info.byteSize));
  if (head) return new Response(null, { status: 200, headers });
  const file = await store.get(info.name);
  if (!file) return notFound();
  return new Response(body(file.data), { status: 200, headers });
}

const body = (bytes: Uint8Array) => new Blob([bytes as Uint8Array<ArrayBuffer>]);

// no-store: a file refused while its creation is hidden is served again as soon as it is restored.
const notFound = () => new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });

/** The page's <audio> element (and a <video> one) fetches with this destination; a link or an address typed in is a document. */
function playedByMediaElement(request: Request) {
  const destination = request.headers.get("sec-fetch-dest");
  return destination === "audio" || destination === "video";
}

/**
 * One byte range (`bytes=a-b`, `bytes=a-`, `bytes=-n`); several ranges or a malformed header are
 * answered with the whole file (RFC 9110 lets a server ignore Range), an impossible one with 416.
 */
export function parseRange(header: string, size: number): { start: number; end: number } | "unsatisfiable" | null {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === "" && match[2] === "")) return null;
  let start: number;
  let end: number;
  if (match[1] === "") {
    const suffix = Number(match[2]);
    if (suffix === 0) return "unsatisfiable";
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === "" ? size - 1 : Math.min(Number(match[2]), size - 1);
    if (match[2] !== "" && Number(match[2]) < start) return null;
  }
  if (start >= size || size === 0) return "unsatisfiable";
  return { start, end };
}
