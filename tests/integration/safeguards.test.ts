import { describe, expect, it } from "vitest";
import { editForumPost, postReply } from "~/.server/domain/forum/forum-service";
import { NEW_MEMBER_LINKS_MESSAGE } from "~/lib/privileges";
import { rankById } from "~/lib/ranks";
import { discussion, member } from "../factories";
import { ENGINE } from "./test-services";
import { testSiteForFile } from "./file-site";

const site = testSiteForFile();
const db = () => site.services.db;
const reply = (by: Awaited<ReturnType<typeof member>>, discussionId: number, body: string) =>
  postReply(site.services, by, discussionId, { body, submissionKey: crypto.randomUUID() });

describe(`new-member safeguards on ${ENGINE}`, () => {
  it("an initiate's post holds at most 2 links and 1 image; mentions do not count; an acolyte's any number", async () => {
    const d = await discussion(site.services);
    const initiate = await member(db());
    const friend = await member(db(), { handle: `friend-${Date.now()}` });
    const three = "See https://a.example, https://b.example and [this](https://c.example).";
    expect(await reply(initiate, d.id, three)).toEqual({ ok: false, status: 400, errors: { body: NEW_MEMBER_LINKS_MESSAGE } });
    // Pictures stored here (issue 32); another site's image renders as a link to it, and counts as one.
    const picture = (n: number) => `![${n}|40x30](/media/${String(n).padStart(32, "0")}-display.webp)`;
    expect(await reply(initiate, d.id, `${picture(1)} ${picture(2)}`)).toMatchObject({ ok: false, status: 400 });
    expect(await reply(initiate, d.id, "![one](https://a.example/1.png) ![two](https://a.example/2.png) https://b.example")).toMatchObject({
      ok: false,
      status: 400,
    });
    const rows = await db().selectFrom("reply").select("id").where("author_id", "=", initiate.id).execute();
    expect(rows).toEqual([]);

    // Two links are allowed (a first post with them waits for approval: approval.test.ts).
    const two = await reply(initiate, d.id, `Two links https://a.example and https://b.example, a picture ${picture(3)} and @${friend.handle}.`);
    expect(two.ok).toBe(true);
    // An edit is held to the same count.
    const plain = await reply(initiate, d.id, `One link, https://e.example, a picture ${picture(4)} and @${friend.handle}.`);
    if (!plain.ok) throw new Error("reply");
    expect(plain.value.pending).toBe(false);
    expect(await editForumPost(site.services, initiate, "reply", plain.value.id, { body: three })).toEqual({
      ok: false,
      status: 400,
      errors: { body: NEW_MEMBER_LINKS_MESSAGE },
    });

    const acolyte = await member(db(), { xp: rankById("acolyte").minXp });
    expect((await reply(acolyte, d.id, `${three} And https://d.example too.`)).ok).toBe(true);
  });
});
