import { describe, expect, it } from "vitest";
import { id3v2, mp3WithMetadata, mpegFrames, oggVorbis, SECRET, wavHeaderThenHtml, wavHoldingHtml, wavUnclosed, wavWithMetadata } from "../factories/audio";
import { wav } from "../factories/media";
import { ENGINE, rowCount } from "./test-services";
import { readable, siteOverHttp } from "./site-server";
import { joinOverHttp } from "./site-join";

/**
 * Audio over HTTP (issue 25, item 7; ADR 0044): what is not real MP3, OGG or WAV is refused with
 * the audio message and stores nothing; what is stored has lost its tags; a plain request gets an
 * attachment, the page's player (Sec-Fetch-Dest: audio) plays it inline.
 */

const web = siteOverHttp({ demo: false });

/** A new member's session, opened by joining through the form. */
const join = async () => (await joinOverHttp(web, "Ada Audio")).cookie;

function shareMusic(cookie: string, audio: Buffer, filename: string) {
  const body = new FormData();
  for (const [key, value] of Object.entries({
    title: "A song",
    description: "Sung at home.",
    type: "music",
    body: "Listen.",
    submissionKey: crypto.randomUUID(),
  }))
    body.append(key, value);
  body.append("audio", new Blob([audio as Uint8Array<ArrayBuffer>]), filename);
  return fetch(web.http.base + "/forge/new", { method: "POST", redirect: "manual", headers: { origin: web.http.base, cookie }, body });
}

async function storedAudio(res: Response) {
  expect(res.status).toBe(302);
  const id = Number(/^\/forge\/(\d+)$/.exec(res.headers.get("location") ?? "")?.[1]);
  const row = await web.site.services.db.selectFrom("creation").select("audio_name").where("id", "=", id).executeTakeFirstOrThrow();
  return row.audio_name!;
}

const count = (table: "creation" | "media") => rowCount(web.site.services.db, table);

describe(`audio uploads on ${ENGINE}`, () => {
  it("refuses a WAV header holding or followed by HTML with the audio message, and stores nothing", async () => {
    const cookie = await join();
    const before = [await count("creation"), await count("media")];
    for (const [file, name] of [
      [wavHoldingHtml(), "song.wav"],
      [wavHeaderThenHtml(), "song.wav"],
      [Buffer.concat([mpegFrames(2), Buffer.from("<html></html>")]), "song.mp3"],
    ] as const) {
      const res = await shareMusic(cookie, file, name);
      expect(res.status, name).toBe(400);
      expect(await readable(res)).toContain("Choose an MP3, OGG or WAV audio file.");
    }
    expect([await count("creation"), await count("media")]).toEqual(before);
  });

  it("stores WAV, MP3 and OGG without their tags", async () => {
    const cookie = await join();
    for (const [file, filename, type, expected] of [
      [wavWithMetadata(), "song.wav", "audio/wav", wav()],
      [mp3WithMetadata(40), "song.mp3", "audio/mpeg", mpegFrames(40)],
      [oggVorbis(), "song.ogg", "audio/ogg", null],
    ] as const) {
      expect(file.includes(SECRET)).toBe(true);
      const name = await storedAudio(await shareMusic(cookie, file, filename));
      const served = await web.http.get(`/media/${name}`, { "sec-fetch-dest": "audio" });
      expect(served.status).toBe(200);
      expect(served.headers.get("content-type")).toBe(type);
      const bytes = Buffer.from(await served.arrayBuffer());
      expect(bytes.includes(SECRET), filename).toBe(false);
      if (expected) expect(bytes.equals(expected), filename).toBe(true);
      else expect(bytes.length).toBeLessThan(file.length);
    }
  });

  it("stores what real recorders and downloads leave: an unclosed WAV, an MP3 cut short after padding", async () => {
    const cookie = await join();
    const mp3 = Buffer.concat([id3v2(), Buffer.alloc(1024), mpegFrames(10)]);
    for (const [file, filename, expected] of [
      [wavUnclosed(), "song.wav", wav()],
      [mp3.subarray(0, mp3.length - 100), "song.mp3", mpegFrames(9)],
    ] as const) {
      const name = await storedAudio(await shareMusic(cookie, file, filename));
      const served = Buffer.from(await (await web.http.get(`/media/${name}`, { "sec-fetch-dest": "audio" })).arrayBuffer());
      expect(served.equals(expected), filename).toBe(true);
    }
  });

  it("serves audio as an attachment, inline only to a media element", async () => {
    const cookie = await join();
    const name = await storedAudio(await shareMusic(cookie, wav(), "song.wav"));
    const plain = await web.http.get(`/media/${name}`);
    expect(plain.headers.get("content-disposition")).toBe(`attachment; filename="${name}"`);
    expect(plain.headers.get("vary")).toContain("Sec-Fetch-Dest");
    const linked = await web.http.get(`/media/${name}`, { "sec-fetch-dest": "document" });
    expect(linked.headers.get("content-disposition")).toBe(`attachment; filename="${name}"`);
    for (const destination of ["audio", "video"]) {
      const played = await web.http.get(`/media/${name}`, { "sec-fetch-dest": destination, range: "bytes=0-3" });
      expect(played.status).toBe(206);
      expect(played.headers.get("content-disposition")).toBe(`inline; filename="${name}"`);
    }
    // The creation page plays the same address.
    const page = await readable(
      await web.http.get(
        `/forge/${(await web.site.services.db.selectFrom("creation").select("id").where("audio_name", "=", name).executeTakeFirstOrThrow()).id}`,
      ),
    );
    expect(page).toContain(`<audio controls="" preload="metadata" src="/media/${name}"`);
  });
});
