import { describe, expect, it } from "vitest";
import { discussion } from "../factories";
import { ENGINE } from "./test-services";
import { readable, siteOverHttp } from "./site-server";
import { joinOverHttp } from "./site-join";

const web = siteOverHttp();

describe(`bookmarks over HTTP, on ${ENGINE}`, () => {
  it("a member keeps a discussion from its page and comes back to it; the button says so on their kept page", async () => {
    const m = await joinOverHttp(web, "Bea Bookmark");
    const d = await discussion(web.site.services, { title: "Breath counting, ten at a time", body: "Count to ten." });
    const path = `/${d.section}/${d.topicId}/${d.id}-${d.slug}`;
    const before = await readable(await web.http.get(path, { cookie: m.cookie }));
    expect(before).toMatch(/<button[^>]*>Bookmark<\/button>/);
    // Kept for the member now (the first visit moved their read marker, the second is kept).
    await web.http.get(path, { cookie: m.cookie });
    expect((await web.http.get(path, { cookie: m.cookie })).headers.get("x-page-cache")).toBe("hit");

    const added = await web.http.post("/bookmarks", { intent: "add", kind: "discussion", id: String(d.id), redirectTo: `${path}#post` }, { cookie: m.cookie });
    expect(added.status).toBe(303);
    expect(added.headers.get("location")).toBe(`${path}#post`);
    const after = await readable(await web.http.get(path, { cookie: m.cookie }));
    expect(after).toMatch(/<button[^>]*>Remove Bookmark<\/button>/);
    // A visitor has no button at all.
    expect(await readable(await web.http.get(path))).not.toMatch(/>Bookmark<\/button>/);

    const list = await readable(await web.http.get("/bookmarks", { cookie: m.cookie }));
    expect(list).toContain(`href="${path}"`);
    expect(list).toContain("Breath counting, ten at a time");
    const id = /name="id" value="(\d+)"/.exec(list)?.[1];
    const saved = await web.http.post("/bookmarks", { intent: "save", id: id!, note: "Try it <b>tonight</b>", remindOn: "" }, { cookie: m.cookie });
    expect(saved.status).toBe(303);
    const noted = await readable(await web.http.get("/bookmarks", { cookie: m.cookie }));
    expect(noted).toContain("Try it &lt;b&gt;tonight&lt;/b&gt;");

    const past = await web.http.post("/bookmarks", { intent: "save", id: id!, note: "", remindOn: "2001-01-01" }, { cookie: m.cookie });
    expect(past.status).toBe(400);
    expect(await readable(past)).toContain("Choose a day after today for the reminder");

    const removed = await web.http.post(
      "/bookmarks",
      { intent: "remove", kind: "discussion", id: String(d.id), redirectTo: "https://evil.example/" },
      { cookie: m.cookie },
    );
    expect(removed.status).toBe(303);
    expect(removed.headers.get("location")).toBe("/bookmarks");
    expect(await readable(await web.http.get("/bookmarks", { cookie: m.cookie }))).toContain("No bookmarks yet.");
  });

  it("refuses what is no bookmark with a 4xx and changes nothing; a visitor is sent to sign in", async () => {
    const m = await joinOverHttp(web, "Rex Refused");
    const refused: Array<Record<string, string>> = [
      { intent: "add", kind: "topic", id: "1" },
      { intent: "add", kind: "discussion", id: "2147483648" },
      { intent: "add", kind: "discussion", id: "-1" },
      { intent: "burn", kind: "discussion", id: "1" },
      { intent: "save", id: "abc", note: "", remindOn: "" },
    ];
    for (const form of refused) {
      const res = await web.http.post("/bookmarks", form, { cookie: m.cookie });
      expect(res.status, JSON.stringify(form)).toBe(400);
    }
    expect((await web.http.post("/bookmarks", { intent: "add", kind: "discussion", id: "2147483647" }, { cookie: m.cookie })).status).toBe(404);
    expect((await web.http.post("/bookmarks", { intent: "save", id: "1", note: "x".repeat(501), remindOn: "" }, { cookie: m.cookie })).status).toBe(400);
    const rows = await web.site.services.db.selectFrom("bookmark").select("id").where("member_id", "=", m.id).execute();
    expect(rows).toEqual([]);

    const visitor = await web.http.get("/bookmarks");
    expect([302, 303]).toContain(visitor.status);
    expect(visitor.headers.get("location")).toMatch(/^\/signin\?redirectTo=%2Fbookmarks/);
    const search = await readable(await web.http.get("/search?q=breath&in=bookmarks", { "x-forwarded-for": "203.0.113.200" }));
    expect(search).toContain("to search your bookmarks.");
  });
});
