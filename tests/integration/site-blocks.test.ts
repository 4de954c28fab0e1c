import { describe, expect, it } from "vitest";
import { postReply } from "~/.server/domain/forum/forum-service";
import { rankById } from "~/lib/ranks";
import { creation, discussion, question } from "../factories";
import { ENGINE } from "./test-services";
import { readable, siteOverHttp } from "./site-server";
import { joinOverHttp, viewerOf } from "./site-join";

const web = siteOverHttp();

describe(`blocking over HTTP, on ${ENGINE}`, () => {
  it("a member blocks another from their profile: each sees the other's reply collapsed, on pages kept before too; a visitor sees both", async () => {
    const ana = await joinOverHttp(web, "Ana Quiet");
    const ben = await joinOverHttp(web, "Ben Loud");
    const d = await discussion(web.site.services, { title: "Quiet mornings" });
    const path = `/${d.section}/${d.topicId}/${d.id}-${d.slug}`;
    const [anaViewer, benViewer] = [await viewerOf(web, ana.id), await viewerOf(web, ben.id)];
    await web.site.services.db
      .updateTable("member")
      .set({ xp: rankById("acolyte").minXp })
      .where("id", "in", [ana.id, ben.id])
      .execute();
    const bens = `Ben's loud words ${Date.now()}`;
    const anas = `Ana's quiet words ${Date.now()}`;
    for (const [by, body] of [
      [benViewer, bens],
      [anaViewer, anas],
    ] as const) {
      const posted = await postReply(web.site.services, by, d.id, { body, submissionKey: crypto.randomUUID() });
      if (!posted.ok || posted.value.pending) throw new Error(JSON.stringify(posted));
    }
    // Both pages kept for their members before the block.
    for (const m of [ana, ben]) {
      await web.http.get(path, { cookie: m.cookie });
      await web.http.get(path, { cookie: m.cookie });
      expect((await web.http.get(path, { cookie: m.cookie })).headers.get("x-page-cache")).toBe("hit");
    }

    const profile = await readable(await web.http.get(`/members/${benViewer.handle}`, { cookie: ana.cookie }));
    expect(profile).toContain("Block Ben Loud");
    const blocked = await web.http.post(`/members/${benViewer.handle}`, { intent: "block" }, { cookie: ana.cookie });
    expect(blocked.status).toBe(302);
    expect(await readable(await web.http.get(`/members/${benViewer.handle}`, { cookie: ana.cookie }))).toContain("Unblock Ben Loud");

    const anaSees = await readable(await web.http.get(path, { cookie: ana.cookie }));
    // Collapsed behind a line that opens it: the words are still there, inside the disclosure.
    expect(anaSees).toContain('<details class="blocked-post"><summary class="cursor-pointer text-sm text-muted">Hidden: you blocked this member.');
    expect(anaSees.slice(anaSees.indexOf('<details class="blocked-post">'))).toContain("loud words");
    expect(anaSees).toContain(anas);
    const benPage = await web.http.get(path, { cookie: ben.cookie });
    expect(benPage.headers.get("x-page-cache")).not.toBe("hit");
    expect(await readable(benPage)).toContain("Hidden: this member blocked you.");
    const visitor = await readable(await web.http.get(path));
    expect(visitor).not.toContain("blocked-post");

    // No button on one's own profile.
    const page = await readable(await web.http.get(`/members/${anaViewer.handle}`, { cookie: ana.cookie }));
    expect(page).not.toContain("Block Ana Quiet");
    expect((await web.http.post(`/members/${benViewer.handle}`, { intent: "unblock" }, { cookie: ana.cookie })).status).toBe(302);
    expect(await readable(await web.http.get(path, { cookie: ana.cookie }))).not.toContain("blocked-post");
  });

  it("a blocked member's question and creation come collapsed themselves, with their words inside; a visitor sees them open", async () => {
    const cai = await joinOverHttp(web, "Cai Blocker");
    const dee = await joinOverHttp(web, "Dee Blocked");
    const deeViewer = await viewerOf(web, dee.id);
    const asked = await question(web.site.services, { asker: deeViewer, title: "How long to hold a plank?", body: `Dee's question words ${Date.now()}` });
    const made = await creation(web.site.services.db, { author: deeViewer, title: "A clay cup", body: `Dee creation words ${Date.now()}` });
    expect((await web.http.post(`/members/${deeViewer.handle}`, { intent: "block" }, { cookie: cai.cookie })).status).toBe(302);
    for (const [path, words] of [
      [`/council/${asked.id}`, "Dee's question words"],
      [`/forge/${made.id}`, "Dee creation words"],
    ] as const) {
      const seen = await readable(await web.http.get(path, { cookie: cai.cookie }));
      const collapsed = seen.indexOf('<details class="blocked-post');
      expect(collapsed, path).toBeGreaterThan(-1);
      expect(seen.slice(collapsed)).toContain("Hidden: you blocked this member.");
      expect(seen.slice(collapsed)).toContain(words);
      const visitor = await readable(await web.http.get(path));
      expect(visitor).toContain(words);
      expect(visitor).not.toContain("blocked-post");
    }
  });
});
