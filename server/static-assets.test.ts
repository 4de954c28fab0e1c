import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { request } from "node:http";
import zlib from "node:zlib";
import express from "express";
import compression from "compression";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { precompress, precompressedAssets } from "./static-assets";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ipos-assets-"));
// Text that compresses well, and something that does not (random bytes in a .js name).
const script = `export const words = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `word-${i % 37}`))};\n`;
const noise = randomBytes(4096);
let server: Server;
let port: number;

beforeAll(async () => {
  fs.writeFileSync(path.join(dir, "core-abc123.js"), script);
  fs.writeFileSync(path.join(dir, "app-def456.css"), `.a{color:red}\n`.repeat(200));
  fs.writeFileSync(path.join(dir, "tiny-0.js"), "export {};\n");
  fs.writeFileSync(path.join(dir, "noise-1.js"), noise);
  fs.writeFileSync(path.join(dir, "photo-2.webp"), noise);
  await precompress(dir);

  const app = express();
  app.use(compression());
  app.use("/assets", precompressedAssets(dir), express.static(dir, { index: false }));
  server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A raw request (fetch would add its own Accept-Encoding and decode the body). */
function get(pathname: string, headers: Record<string, string> = {}, method = "GET") {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path: pathname, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("precompress", () => {
  it("writes brotli and gzip copies of text assets that decode to the file, and none for tiny files, images or where compression does not pay", () => {
    const names = fs.readdirSync(dir);
    for (const copy of ["core-abc123.js.br", "core-abc123.js.gz", "app-def456.css.br", "app-def456.css.gz"]) expect(names).toContain(copy);
    expect(names).not.toContain("tiny-0.js.br");
    expect(names).not.toContain("photo-2.webp.br");
    expect(names).not.toContain("noise-1.js.br");
    expect(names).not.toContain("noise-1.js.gz");
    expect(zlib.brotliDecompressSync(fs.readFileSync(path.join(dir, "core-abc123.js.br"))).toString()).toBe(script);
    expect(zlib.gunzipSync(fs.readFileSync(path.join(dir, "core-abc123.js.gz"))).toString()).toBe(script);
    expect(fs.statSync(path.join(dir, "core-abc123.js.br")).size).toBeLessThan(fs.statSync(path.join(dir, "core-abc123.js.gz")).size);
  });
});

describe("precompressed assets", () => {
  it("sends the brotli copy to a browser that takes it, with its length, type, a year's caching and Vary", async () => {
    const res = await get("/assets/core-abc123.js", { "accept-encoding": "gzip, deflate, br, zstd" });
    expect(res.status).toBe(200);
    expect(res.headers["content-encoding"]).toBe("br");
    expect(res.headers["content-type"]).toBe("text/javascript; charset=utf-8");
    expect(res.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(res.headers.vary).toMatch(/Accept-Encoding/i);
    expect(Number(res.headers["content-length"])).toBe(res.body.length);
    expect(res.body).toEqual(fs.readFileSync(path.join(dir, "core-abc123.js.br")));
    expect(zlib.brotliDecompressSync(res.body).toString()).toBe(script);
  });

  it("sends gzip where brotli is not taken, and the file itself where neither is", async () => {
    const gzip = await get("/assets/app-def456.css", { "accept-encoding": "gzip;q=0.8, br;q=0" });
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(gzip.headers["content-type"]).toBe("text/css; charset=utf-8");
    expect(zlib.gunzipSync(gzip.body).toString()).toBe(`.a{color:red}\n`.repeat(200));

    for (const headers of [{}, { "accept-encoding": "identity" }, { "accept-encoding": "br;q=0, gzip;q=0" }] as Record<string, string>[]) {
      const plain = await get("/assets/core-abc123.js", headers);
      expect(plain.status).toBe(200);
      expect(plain.headers["content-encoding"]).toBeUndefined();
      expect(plain.body.toString()).toBe(script);
    }
  });

  it("keeps compression() from encoding the file itself again under the file's own strong tag", async () => {
    for (const header of ["deflate", "identity", "br;q=0, gzip;q=0, deflate"]) {
      const plain = await get("/assets/core-abc123.js", { "accept-encoding": header });
      expect(plain.headers["content-encoding"], header).toBeUndefined();
      expect(plain.headers["cache-control"], header).toContain("no-transform");
      expect(plain.body.toString(), header).toBe(script);
    }
  });

  it("answers a repeat with 304 by an ETag of its own per encoding, and HEAD with headers only", async () => {
    const br = await get("/assets/core-abc123.js", { "accept-encoding": "br" });
    const gzip = await get("/assets/core-abc123.js", { "accept-encoding": "gzip" });
    expect(br.headers.etag).toMatch(/^"[\w-]+-br"$/);
    expect(gzip.headers.etag).toMatch(/^"[\w-]+-gz"$/);
    const again = await get("/assets/core-abc123.js", { "accept-encoding": "br", "if-none-match": String(br.headers.etag) });
    expect(again.status).toBe(304);
    expect(again.body).toHaveLength(0);
    // The brotli copy's tag does not stand for the gzip bytes.
    const other = await get("/assets/core-abc123.js", { "accept-encoding": "gzip", "if-none-match": String(br.headers.etag) });
    expect(other.status).toBe(200);
    const head = await get("/assets/core-abc123.js", { "accept-encoding": "br" }, "HEAD");
    expect(head.status).toBe(200);
    expect(head.headers["content-length"]).toBe(br.headers["content-length"]);
    expect(head.body).toHaveLength(0);
  });

  it("refuses with 406 a client that takes no encoding it holds, not even the file itself", async () => {
    const res = await get("/assets/core-abc123.js", { "accept-encoding": "zstd, *;q=0" });
    expect(res.status).toBe(406);
  });

  it("leaves files without copies, unknown names and range requests to the static files", async () => {
    const tiny = await get("/assets/tiny-0.js", { "accept-encoding": "br" });
    expect(tiny.status).toBe(200);
    expect(tiny.body.toString()).toBe("export {};\n");
    expect((await get("/assets/missing-9.js", { "accept-encoding": "br" })).status).toBe(404);
    const range = await get("/assets/core-abc123.js", { "accept-encoding": "identity", range: "bytes=0-5" });
    expect(range.status).toBe(206);
    expect(range.body.toString()).toBe(script.slice(0, 6));
  });
});
