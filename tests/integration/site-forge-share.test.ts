import http from "node:http";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { COMMENT_MARK, GPS_MARK, jpegWithMetadata, png, truncatedJpeg, wav, XMP_MARK } from "../factories/media";
import { ENGINE } from "./test-services";
import { readable, siteOverHttp } from "./site-server";
import { joinOverHttp } from "./site-join";

/** Sharing over HTTP: the streamed multipart parser, the body limits and the /media route. */

const web = siteOverHttp({ demo: false });

/** A new member, joined through the form, with the session the join opened. */
const join = () => joinOverHttp(web, "Sam Sharer");

type Part = [string, string] | [string, Uint8Array, string];
function form(parts: Part[]) {
  const body = new FormData();
  for (const part of parts) {
    if (typeof part[1] === "string") body.append(part[0], part[1]);
    else body.append(part[0], new Blob([part[1] as Uint8Array<ArrayBuffer>]), part[2]);
  }
  return body;
}
const fields = (type: string, extra: Part[] = []): Part[] => [
  ["title", `My ${type}`],
  ["description", "Shared over HTTP."],
  ["type", type],
  ["body", "Made with *care*."],
  ["submissionKey", crypto.randomUUID()],
  ...extra,
];
function postForm(path: string, parts: Part[], cookie: string, headers: Record<string, string> = {}) {
  return fetch(web.http.base + path, { method: "POST", redirect: "manual", headers: { origin: web.http.base, cookie, ...headers }, body: form(parts) });
}
const creationRow = (id: number) => web.site.services.db.selectFrom("creation").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
const idOf = (location: string | null) => Number(/^\/forge\/(\d+)$/.exec(location ?? "")?.[1]);

/**
 * Sends the head of a request and only `sent` bytes of its body, then waits for the answer: a
 * server that answers has decided without reading (let alone buffering) the rest.
 */
function partialPost(path: string, headers: Record<string, string>, first: Buffer): Promise<{ status: number; body: string }> {
  const url = new URL(web.http.base + path);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: url.hostname, port: url.port, path: url.pathname, method: "POST", headers: { origin: web.http.base, ...headers } },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (c) => (body += c));
        res.on("end", () => {
          resolve({ status: res.statusCode!, body });
          req.destroy();
        });
      },
    );
    req.on("error", reject);
    req.write(first);
    // The rest of the body is never sent.
  });
}

describe(`sharing over HTTP on ${ENGINE}`, () => {
  it("sends a signed-out visitor to sign in and back", async () => {
    const res = await web.http.get("/forge/new");
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/signin?redirectTo=%2Fforge%2Fnew");
  });

  it("shares Visual Art without JavaScript; the served image carries none of the upload's metadata", async () => {
    const { cookie } = await join();
    const page = await readable(await web.http.get("/forge/new", { cookie }));
    expect(page).toContain("Share Your Creation");
    expect(page).toMatch(/<form[^>]*enctype="multipart\/form-data"/i);

    const original = await jpegWithMetadata();
    const meta = await sharp(original).metadata();
    expect([Boolean(meta.exif), Boolean(meta.xmp), Boolean(meta.icc)]).toEqual([true, true, true]);
    expect(original.includes(COMMENT_MARK)).toBe(true);

    const res = await postForm("/forge/new", fields("art", [["image", original, "holiday.jpg"]]), cookie);
    expect(res.status).toBe(302);
    const creation = await creationRow(idOf(res.headers.get("location")));
    expect(creation.type).toBe("art");

    for (const name of [creation.image_name!, creation.image_display_name!, creation.image_thumb_name!]) {
      const served = await web.http.get(`/media/${name}`);
      expect(served.status).toBe(200);
      expect(served.headers.get("content-type")).toBe("image/webp");
      expect(served.headers.get("x-content-type-options")).toBe("nosniff");
      expect(served.headers.get("content-disposition")).toBe(`inline; filename="${name}"`);
      expect(served.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      const bytes = Buffer.from(await served.arrayBuffer());
      const etag = served.headers.get("etag");
      expect(etag).toBe(`"${(await web.site.services.media.head(name))!.sha256}"`);
      const stripped = await sharp(bytes).metadata();
      expect([stripped.exif, stripped.xmp, stripped.icc, stripped.comments]).toEqual([undefined, undefined, undefined, undefined]);
      for (const mark of [GPS_MARK, XMP_MARK, COMMENT_MARK, "SecretCam"]) expect(bytes.includes(mark)).toBe(false);
      const again = await web.http.get(`/media/${name}`, { "if-none-match": etag! });
      expect(again.status).toBe(304);
    }
  });

  it("shares a picture without words; refuses Writing without its text, with the message (issue 26)", async () => {
    const { cookie } = await join();
    const noWords = (type: string, extra: Part[] = []) => fields(type, extra).map(([k, ...v]): Part => (k === "body" ? ["body", ""] : ([k, ...v] as Part)));
    const art = await postForm("/forge/new", noWords("art", [["image", await png(), "dawn.png"]]), cookie);
    expect(art.status).toBe(302);
    const id = idOf(art.headers.get("location"));
    expect((await creationRow(id)).body).toBe("");
    const page = await web.http.get(`/forge/${id}`);
    expect(page.status).toBe(200);
    // No empty prose block for the words never written, and the picture still has a name.
    const html = await readable(page);
    expect(html).not.toMatch(/class="prose-member[^"]*"[^>]*><\/div>/);
    expect(html).toMatch(/<img[^>]+alt="[^"]+"/);

    const before = await web.site.services.db.selectFrom("creation").select("id").execute();
    const writing = await postForm("/forge/new", noWords("writing"), cookie);
    expect(writing.status).toBe(400);
    expect(await readable(writing)).toContain("Write your piece: for Writing, the text is the work.");
    // Neither the image nor a word: the message asks for the image, which is the work.
    const bare = await postForm("/forge/new", noWords("art"), cookie);
    expect(bare.status).toBe(400);
    expect(await readable(bare)).toContain("Choose an image for Visual Art: the image is the work, words are optional.");
    expect(await web.site.services.db.selectFrom("creation").select("id").execute()).toEqual(before);
  });

  it("tells an initiate before the form how many creations are left today, fresh on every visit; at none, no upload", async () => {
    const { cookie } = await join();
    const keyOf = (page: string) => /name="submissionKey" value="([^"]+)"/.exec(page)?.[1];
    const first = await readable(await web.http.get("/forge/new", { cookie }));
    expect(first).toContain("You can share 3 more creations today.");
    expect(first.indexOf("You can share 3 more")).toBeLessThan(first.search(/<form[^>]*multipart/));
    // Never kept by the page cache (ADR 0040): each visit renders its own form key and figure.
    const again = await readable(await web.http.get("/forge/new", { cookie }));
    expect(keyOf(again)).toMatch(/^[0-9a-f-]{36}$/);
    expect(keyOf(again)).not.toBe(keyOf(first));
    expect((await postForm("/forge/new", fields("writing"), cookie)).status).toBe(302);
    expect(await readable(await web.http.get("/forge/new", { cookie }))).toContain("You can share 2 more creations today.");
    expect((await postForm("/forge/new", fields("writing"), cookie)).status).toBe(302);
    expect(await readable(await web.http.get("/forge/new", { cookie }))).toContain("You can share 1 more creation today.");
    expect((await postForm("/forge/new", fields("writing"), cookie)).status).toBe(302);
    const none = await readable(await web.http.get("/forge/new", { cookie }));
    expect(none).toContain("You have shared all you can today. Initiates may start 3 new discussions, questions or creations a day");
    expect(none).not.toContain('type="file"');
    expect(none).not.toContain("multipart/form-data");
  });

  it("shares a Project with an http(s) link; refuses javascript: and data: links", async () => {
    const { cookie } = await join();
    const ok = await postForm("/forge/new", fields("projects", [["linkUrl", "https://example.org/bench"]]), cookie);
    expect(ok.status).toBe(302);
    expect((await creationRow(idOf(ok.headers.get("location")))).link_url).toBe("https://example.org/bench");
    for (const link of ["javascript:alert(1)", "data:text/html,<script>alert(1)</script>", "JavaScript://example.org/%0aalert(1)"]) {
      const bad = await postForm("/forge/new", fields("projects", [["linkUrl", link]]), cookie);
      expect(bad.status, link).toBe(400);
      expect(await readable(bad)).toContain("The link must start with http:// or https://");
    }
  });

  it("shares Music and serves it with byte ranges", async () => {
    const { cookie } = await join();
    const audio = wav();
    const res = await postForm("/forge/new", fields("music", [["audio", audio, "song.wav"]]), cookie);
    expect(res.status).toBe(302);
    const name = (await creationRow(idOf(res.headers.get("location")))).audio_name!;
    const whole = await web.http.get(`/media/${name}`);
    expect(whole.headers.get("content-type")).toBe("audio/wav");
    expect(whole.headers.get("accept-ranges")).toBe("bytes");
    expect(Buffer.from(await whole.arrayBuffer()).equals(audio)).toBe(true);
    const part = await web.http.get(`/media/${name}`, { range: "bytes=10-19" });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe(`bytes 10-19/${audio.length}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(audio.subarray(10, 20))).toBe(true);
    const tail = await web.http.get(`/media/${name}`, { range: "bytes=-4" });
    expect(Buffer.from(await tail.arrayBuffer()).equals(audio.subarray(-4))).toBe(true);
    const outside = await web.http.get(`/media/${name}`, { range: `bytes=${audio.length + 10}-` });
    expect(outside.status).toBe(416);
    expect(outside.headers.get("content-range")).toBe(`bytes */${audio.length}`);
  });

  it("answers 404 for names it did not generate, before any query", async () => {
    for (const path of ["/media/..%2F..%2Fetc%2Fpasswd", "/media/page.html", `/media/${"a".repeat(32)}.html`, `/media/${"b".repeat(32)}.webp`]) {
      const res = await web.http.get(path);
      expect(res.status, path).toBe(404);
      expect(res.headers.get("content-type")).not.toContain("text/html");
    }
  });

  it("refuses a 30 MB upload with 413 after reading only its head", async () => {
    const { cookie } = await join();
    const res = await partialPost(
      "/forge/new",
      { cookie, "content-type": "multipart/form-data; boundary=x", "content-length": String(30 * 1024 * 1024) },
      Buffer.alloc(64 * 1024, 0x61),
    );
    expect(res.status).toBe(413);
  });

  it("refuses an image over 5 MB with 413 while it is still arriving", async () => {
    const { cookie } = await join();
    const boundary = "----forge-share-boundary";
    const head = Buffer.from(
      [
        ...[
          ["title", "Too big"],
          ["type", "art"],
          ["body", "x"],
          ["submissionKey", crypto.randomUUID()],
        ].map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`),
        `--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="big.png"\r\nContent-Type: image/png\r\n\r\n`,
      ].join(""),
    );
    // Declares an 8 MB image (within the 21 MB route bound) and sends 5.5 MB of it.
    const res = await partialPost(
      "/forge/new",
      { cookie, "content-type": `multipart/form-data; boundary=${boundary}`, "content-length": String(head.length + 8 * 1024 * 1024) },
      Buffer.concat([head, Buffer.alloc(5.5 * 1024 * 1024, 1)]),
    );
    expect(res.status).toBe(413);
    expect(res.body).toContain("The image is larger than 5 MB.");
  });

  it("keeps the global 1 MB limit on every other route, and lets the upload routes' .data variants past it", async () => {
    const { cookie } = await join();
    const big = new Uint8Array(2 * 1024 * 1024);
    const askRes = await fetch(web.http.base + "/council/ask", {
      method: "POST",
      headers: { origin: web.http.base, cookie, "content-type": "application/x-www-form-urlencoded" },
      body: big,
    });
    expect(askRes.status).toBe(413);
    const onCreation = await postForm("/forge/1", fields("art", [["image", big, "a.png"]]), cookie);
    expect(onCreation.status).toBe(413);
    const data = await postForm("/forge/new.data", fields("art", [["image", big, "a.png"]]), cookie);
    expect(data.status).not.toBe(413);
    expect(await web.site.services.db.selectFrom("media").select("name").where("byte_size", "=", big.length).executeTakeFirst()).toBeUndefined();
  });

  it("refuses unsafe file names, too many files and too many fields", async () => {
    const { cookie } = await join();
    const image = await png();
    const before = await web.site.services.db.selectFrom("creation").select("id").execute();
    for (const name of ["../../etc/passwd.png", "..\\..\\boot.png", "a/b.png"]) {
      const res = await postForm("/forge/new", fields("art", [["image", image, name]]), cookie);
      expect(res.status, name).toBe(400);
      expect(await readable(res)).toContain("The file name is not allowed.");
    }
    // A raw control character breaks the part's header: the form is refused as unreadable.
    const control = await postForm("/forge/new", fields("art", [["image", image, "evil\u0007.png"]]), cookie);
    expect(control.status).toBe(400);
    expect(await readable(control)).toContain("The form could not be read. Please try again.");
    expect(await web.site.services.db.selectFrom("creation").select("id").execute()).toEqual(before);
    const files = await postForm(
      "/forge/new",
      fields("art", [
        ["image", image, "a.png"],
        ["audio", wav(), "a.wav"],
        ["extra", image, "b.png"],
      ]),
      cookie,
    );
    expect(files.status).toBe(400);
    const many = await postForm(
      "/forge/new",
      fields(
        "writing",
        Array.from({ length: 12 }, (_, i): Part => [`f${i}`, "x"]),
      ),
      cookie,
    );
    expect(many.status).toBe(400);
    expect(await readable(many)).toContain("Too many fields in one form.");
    const wrongType = await postForm("/forge/new", fields("music", [["image", image, "a.png"]]), cookie);
    expect(wrongType.status).toBe(400);
    expect(await readable(wrongType)).toContain("Only Visual Art takes an image.");
  });

  it("answers an initiate over the daily limit with 429 before reading their image's pixels", async () => {
    const { cookie } = await join();
    for (let i = 0; i < 3; i++) expect((await postForm("/forge/new", fields("writing"), cookie)).status).toBe(302);
    // Its header is sound and its data cut short: decoding it would have answered 400 "could not be read".
    const res = await postForm("/forge/new", fields("art", [["image", await truncatedJpeg(), "cut.jpg"]]), cookie);
    expect(res.status).toBe(429);
    expect(await readable(res)).toContain("Initiates may start 3 new discussions, questions or creations a day");
  });

  it("lets the author edit and replace the file; nobody else", async () => {
    const author = await join();
    const other = await join();
    const res = await postForm("/forge/new", fields("art", [["image", await png(), "a.png"]]), author.cookie);
    const id = idOf(res.headers.get("location"));
    const before = await creationRow(id);
    expect((await web.http.get(`/forge/${id}/edit`, { cookie: other.cookie })).status).toBe(403);
    const page = await readable(await web.http.get(`/forge/${id}/edit`, { cookie: author.cookie }));
    expect(page).toContain("Edit Your Creation");
    expect(page).toContain(`/media/${before.image_display_name}`);

    const edited = await postForm(
      `/forge/${id}/edit`,
      fields("art", [["image", await png(90, 90, "#0a0"), "b.png"]])
        .slice(0, 4)
        .concat([["image", await png(90, 90, "#0a0"), "b.png"]]),
      author.cookie,
    );
    expect(edited.status).toBe(302);
    const after = await creationRow(id);
    expect(after.image_name).not.toBe(before.image_name);
    expect((await web.http.get(`/media/${before.image_name}`)).status).toBe(404);
    const refused = await postForm(`/forge/${id}/edit`, fields("writing").slice(0, 4), other.cookie);
    expect(refused.status).toBe(403);
  });
});
