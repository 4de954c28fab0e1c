import { describe, expect, it } from "vitest";
import { png, wav } from "../factories/media";
import { ENGINE } from "./test-services";
import { siteOverHttp } from "./site-server";
import { joinOverHttp } from "./site-join";

/**
 * A hidden creation's files (issue 25, item 6): 404 to visitors and other members, served
 * privately (never from a shared cache) to its author and to moderators, public again once restored.
 */

const web = siteOverHttp({ demo: false });

const PUBLIC = "public, max-age=31536000, immutable";
const PRIVATE = "private, no-cache";

let n = 0;
async function join(role: "member" | "moderator" = "member") {
  n += 1;
  const { cookie, id } = await joinOverHttp(web, `Hidden Tester ${n}`);
  if (role !== "member") await web.site.services.db.updateTable("member").set({ role }).where("id", "=", id).execute();
  return cookie;
}

async function share(cookie: string, type: "art" | "music") {
  const body = new FormData();
  for (const [key, value] of Object.entries({ title: `Hidden ${type}`, description: "To be hidden.", type, body: "Made.", submissionKey: crypto.randomUUID() }))
    body.append(key, value);
  if (type === "art") body.append("image", new Blob([(await png()) as Uint8Array<ArrayBuffer>]), "art.png");
  else body.append("audio", new Blob([wav() as Uint8Array<ArrayBuffer>]), "song.wav");
  const res = await fetch(web.http.base + "/forge/new", { method: "POST", redirect: "manual", headers: { origin: web.http.base, cookie }, body });
  expect(res.status).toBe(302);
  const id = Number(/^\/forge\/(\d+)$/.exec(res.headers.get("location") ?? "")?.[1]);
  const row = await web.site.services.db.selectFrom("creation").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
  const names = [row.image_name, row.image_display_name, row.image_thumb_name, row.audio_name].filter((x): x is string => x !== null);
  return { id, names };
}

const moderate = async (id: number, action: "hide" | "restore", cookie: string) =>
  expect((await web.http.post(`/forge/${id}`, { intent: "moderate", kind: "creation", action }, { cookie })).status).toBe(302);

describe(`a hidden creation's files on ${ENGINE}`, () => {
  it("are refused to visitors and other members, private to the author and moderators, public again once restored", async () => {
    const author = await join();
    const other = await join();
    const moderator = await join("moderator");
    const art = await share(author, "art");
    const music = await share(author, "music");
    const names = [...art.names, ...music.names];
    expect(names).toHaveLength(4);

    const etags = new Map<string, string>();
    for (const name of names) {
      const res = await web.http.get(`/media/${name}`);
      expect(res.status, name).toBe(200);
      expect(res.headers.get("cache-control")).toBe(PUBLIC);
      etags.set(name, res.headers.get("etag")!);
    }

    await moderate(art.id, "hide", moderator);
    await moderate(music.id, "hide", moderator);
    for (const name of names) {
      for (const [who, cookie] of [
        ["visitor", ""],
        ["another member", other],
      ] as const) {
        const headers: Record<string, string> = cookie ? { cookie } : {};
        const res = await web.http.get(`/media/${name}`, headers);
        expect(res.status, `${who} ${name}`).toBe(404);
        expect(res.headers.get("cache-control")).toBe("no-store");
        // An ETag the browser kept from before the hide earns no 304 either.
        const revalidated = await web.http.get(`/media/${name}`, { ...headers, "if-none-match": etags.get(name)! });
        expect(revalidated.status, `${who} ${name} revalidated`).toBe(404);
        expect((await web.http.get(`/media/${name}`, { ...headers, range: "bytes=0-3" })).status).toBe(404);
      }
      for (const [who, cookie] of [
        ["author", author],
        ["moderator", moderator],
      ] as const) {
        const res = await web.http.get(`/media/${name}`, { cookie });
        expect(res.status, `${who} ${name}`).toBe(200);
        expect(res.headers.get("cache-control")).toBe(PRIVATE);
        expect(res.headers.get("etag")).toBe(etags.get(name));
        const revalidated = await web.http.get(`/media/${name}`, { cookie, "if-none-match": etags.get(name)! });
        expect(revalidated.status).toBe(304);
        expect(revalidated.headers.get("cache-control")).toBe(PRIVATE);
      }
    }
    const part = await web.http.get(`/media/${music.names[0]}`, { cookie: author, range: "bytes=0-3" });
    expect(part.status).toBe(206);
    expect(part.headers.get("cache-control")).toBe(PRIVATE);

    await moderate(art.id, "restore", moderator);
    await moderate(music.id, "restore", moderator);
    for (const name of names) {
      const res = await web.http.get(`/media/${name}`);
      expect(res.status, name).toBe(200);
      expect(res.headers.get("cache-control")).toBe(PUBLIC);
    }
  });

  it("are gone for everyone once the creation is deleted, its author included", async () => {
    const author = await join();
    const art = await share(author, "art");
    // Deleting a creation deletes its files; a name no creation shows is not served even if a row remains.
    await web.site.services.db.updateTable("creation").set({ deleted_at: new Date().toISOString() }).where("id", "=", art.id).execute();
    for (const name of art.names) {
      expect(await web.site.services.media.head(name)).toBeDefined();
      expect((await web.http.get(`/media/${name}`, { cookie: author })).status, name).toBe(404);
    }
  });
});
