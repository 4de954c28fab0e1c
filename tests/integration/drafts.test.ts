import { describe, expect, it } from "vitest";
import { DRAFT_MESSAGES } from "~/.server/domain/writing/draft-service";
import { DRAFT_LIMIT } from "~/lib/limits";
import { rankById } from "~/lib/ranks";
import { BODY_MAX } from "~/schemas/fields";
import { commentOnCreation } from "~/.server/domain/forge/forge-engagement";
import { creation, discussion } from "../factories";
import { ENGINE } from "./test-services";
import { readable, siteOverHttp } from "./site-server";
import { joinOverHttp } from "./site-join";

const web = siteOverHttp({ demo: false });
const keep = (cookie: string, fields: Record<string, string>) => web.http.post("/drafts", fields, { cookie });
const draftOf = async (cookie: string, place: string) =>
  ((await (await web.http.get(`/drafts?place=${encodeURIComponent(place)}`, { cookie })).json()) as { draft: { body: string } | null }).draft;

describe(`drafts on ${ENGINE}`, () => {
  it("keeps a member's half-written reply, lists it on their dashboard, and drops it once the reply is posted", async () => {
    const d = await discussion(web.site.services, { title: "Breath counting" });
    const path = `/${d.section}/${d.topicId}/${d.id}-${d.slug}`;
    const m = await joinOverHttp(web, "Dee Drafter", { xp: rankById("acolyte").minXp });
    const place = `reply:${d.id}`;
    // A reader's copy of the discussion stays kept while a member's draft is saved every few seconds.
    await web.http.get(path);
    expect((await web.http.get(path)).headers.get("x-page-cache")).toBe("hit");
    const kept = await keep(m.cookie, { place, body: "I count to ten, then", label: "Reply in Breath counting", url: `${path}#reply-body` });
    expect(kept.status).toBe(200);
    expect((await web.http.get(path)).headers.get("x-page-cache")).toBe("hit");
    expect(await draftOf(m.cookie, place)).toMatchObject({ body: "I count to ten, then" });
    // Another member has no such draft.
    const other = await joinOverHttp(web, "Oli Other");
    expect(await draftOf(other.cookie, place)).toBeNull();

    const dashboard = await readable(await web.http.get("/dashboard", { cookie: m.cookie }));
    expect(dashboard).toContain(`href="${path}#reply-body"`);
    expect(dashboard).toContain("Reply in Breath counting");

    const page = await readable(await web.http.get(path, { cookie: m.cookie }));
    const submissionKey = /name="submissionKey" value="([^"]+)"/.exec(page)![1]!;
    expect((await web.http.post(path, { intent: "reply", body: "I count to ten, then start again.", submissionKey }, { cookie: m.cookie })).status).toBe(302);
    expect(await draftOf(m.cookie, place)).toBeNull();
    expect(await readable(await web.http.get("/dashboard", { cookie: m.cookie }))).not.toContain("Reply in Breath counting");
  });

  it("discards from the dashboard, removes on an empty text, and refuses what is no draft", async () => {
    const m = await joinOverHttp(web, "Dan Discarder");
    await keep(m.cookie, { place: "question:new", body: "Why do I", label: "Question for the Council", url: "/council/ask" });
    const discarded = await keep(m.cookie, { intent: "discard", place: "question:new", redirectTo: "/dashboard#drafts" });
    expect(discarded.status).toBe(303);
    expect(discarded.headers.get("location")).toBe("/dashboard#drafts");
    expect(await draftOf(m.cookie, "question:new")).toBeNull();
    await keep(m.cookie, { place: "question:new", body: "Again", label: "Q", url: "/council/ask" });
    await keep(m.cookie, { place: "question:new", body: "   ", label: "Q", url: "/council/ask" });
    expect(await draftOf(m.cookie, "question:new")).toBeNull();

    const cases: Array<[Record<string, string>, number, string]> = [
      [{ place: "topic:1", body: "x", label: "l", url: "/" }, 400, DRAFT_MESSAGES.place],
      [{ place: "reply:1", body: "x".repeat(BODY_MAX + 1), label: "l", url: "/" }, 400, DRAFT_MESSAGES.long],
      [{ place: "reply:1", body: "x", label: "l", url: "//evil.example/" }, 400, DRAFT_MESSAGES.url],
      [{ place: "reply:1", body: "x", label: "l", url: "https://evil.example/" }, 400, DRAFT_MESSAGES.url],
    ];
    for (const [fields, status, message] of cases) {
      const res = await keep(m.cookie, fields);
      expect(res.status, JSON.stringify(fields).slice(0, 80)).toBe(status);
      expect(((await res.json()) as { error: string }).error).toBe(message);
    }
    // Written by another member signed in on this browser before: kept under nobody.
    const foreign = await keep(m.cookie, { place: "reply:1", body: "Not mine", label: "l", url: "/", member: "someone-else" });
    expect(foreign.status).toBe(409);
    expect(((await foreign.json()) as { error: string }).error).toBe(DRAFT_MESSAGES.member);
    // A megabyte is refused before it is read whole.
    expect((await keep(m.cookie, { place: "reply:1", body: "x".repeat(1024 * 1024), label: "l", url: "/" })).status).toBeGreaterThanOrEqual(400);
    expect((await web.http.post("/drafts", { place: "reply:1", body: "x", label: "l", url: "/" })).status).toBe(401);
    expect((await web.http.get("/drafts?place=reply:1")).status).toBe(401);
    expect(await web.site.services.db.selectFrom("draft").select("place").where("member_id", "=", m.id).execute()).toEqual([]);
  });

  it("a comment's and a creation's drafts go with the comment or creation posted", async () => {
    const m = await joinOverHttp(web, "Cam Commenter");
    const c = await creation(web.site.services.db, { title: "A clay bowl" });
    await keep(m.cookie, { place: `comment:${c.id}`, body: "Lovely gl", label: "Comment on A clay bowl", url: `/forge/${c.id}#comment-body` });
    const viewer = await web.site.services.db
      .selectFrom("member")
      .select(["id", "name", "email", "handle", "role", "avatar"])
      .where("id", "=", m.id)
      .executeTakeFirstOrThrow();
    const commented = await commentOnCreation(web.site.services, viewer, c.id, { body: "Lovely glaze.", submissionKey: crypto.randomUUID() });
    expect(commented.ok).toBe(true);
    expect(await draftOf(m.cookie, `comment:${c.id}`)).toBeNull();
    const page = await readable(await web.http.get(`/forge/${c.id}`, { cookie: m.cookie }));
    expect(page).toContain('id="comment-body"');
  });

  it(`counts ${DRAFT_LIMIT.max} saves a minute per member`, async () => {
    const m = await joinOverHttp(web, "Sal Saver");
    const statuses = [];
    for (let i = 0; i <= DRAFT_LIMIT.max; i++)
      statuses.push((await keep(m.cookie, { place: "creation:new", body: `v${i}`, label: "l", url: "/forge/new" })).status);
    expect(statuses.slice(0, DRAFT_LIMIT.max).every((s) => s === 200)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });
});
