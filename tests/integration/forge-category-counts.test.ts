import { describe, expect, it } from "vitest";
import type { Viewer } from "~/.server/context";
import { editCreation, shareCreation } from "~/.server/domain/forge/creation-service";
import { listCategories } from "~/.server/domain/forge/forge-read-model";
import { deleteOwnPost, setPostHidden } from "~/.server/domain/posts/pipeline";
import type { CreationType } from "~/lib/domain-values";
import type { CreationInput } from "~/schemas/forge";
import { member as newMember } from "../factories";
import { png, wav } from "../factories/media";
import { ENGINE } from "./test-services";
import { testSiteForFile } from "./file-site";

/**
 * /forge's category counts are kept on write (ADR 0036): after every kind of write they equal what
 * counting the visible creations gives, and writers racing on PostgreSQL move them exactly once each.
 */

const site = testSiteForFile();
const member = (role: Viewer["role"] = "member") => newMember(site.services.db, { xp: 60, role });
const input = (type: CreationType): CreationInput & { submissionKey: string } => ({
  title: `A ${type} piece`,
  description: "Made this week.",
  type,
  body: "Words.",
  linkUrl: type === "projects" ? "https://example.org/bench" : undefined,
  submissionKey: crypto.randomUUID(),
});
async function share(author: Viewer, type: CreationType) {
  const shared = await shareCreation(site.services, author, input(type), {});
  if (!shared.ok) throw new Error(JSON.stringify(shared));
  return shared.value.id;
}

/** What /forge shows, by type. */
async function shown(): Promise<Record<string, number>> {
  return Object.fromEntries((await listCategories(site.services.db)).map((c) => [c.id, c.count]));
}

/** The scan the stored counts replace: every visible creation, grouped by type. */
async function counted(): Promise<Record<string, number>> {
  const rows = await site.services.db
    .selectFrom("creation")
    .select(["type", (eb) => eb.fn.countAll<number>().as("n")])
    .where("deleted_at", "is", null)
    .where("hidden_at", "is", null)
    .groupBy("type")
    .execute();
  const byType: Record<string, number> = { writing: 0, art: 0, music: 0, projects: 0 };
  for (const r of rows) byType[r.type] = Number(r.n);
  return byType;
}

describe(`the Forge's category counts on ${ENGINE}`, () => {
  it("follow every share, change of type, hide, restore and delete", async () => {
    const author = await member();
    const moderator = await member("moderator");
    const start = await shown();
    expect(start).toEqual(await counted());
    const moved = (delta: Partial<Record<CreationType, number>>) =>
      Object.fromEntries(Object.entries(start).map(([type, n]) => [type, n + (delta[type as CreationType] ?? 0)]));

    const writing = await share(author, "writing");
    const project = await share(author, "projects");
    expect(await shown()).toEqual(moved({ writing: 1, projects: 1 }));

    // The author makes the writing a project: it leaves one category for the other.
    const edited = await editCreation(site.services, author, writing, { ...input("projects") }, {});
    expect(edited.ok).toBe(true);
    expect(await shown()).toEqual(moved({ projects: 2 }));
    // An edit that keeps the type moves nothing.
    expect((await editCreation(site.services, author, writing, { ...input("projects"), title: "Renamed" }, {})).ok).toBe(true);
    expect(await shown()).toEqual(moved({ projects: 2 }));

    expect((await setPostHidden(site.services, moderator, "creation", project, true)).ok).toBe(true);
    expect(await shown()).toEqual(moved({ projects: 1 }));
    // Hiding what is hidden changes nothing.
    expect((await setPostHidden(site.services, moderator, "creation", project, true)).ok).toBe(true);
    expect(await shown()).toEqual(moved({ projects: 1 }));
    expect((await setPostHidden(site.services, moderator, "creation", project, false)).ok).toBe(true);
    expect(await shown()).toEqual(moved({ projects: 2 }));

    expect((await deleteOwnPost(site.services, author, "creation", writing)).ok).toBe(true);
    expect(await shown()).toEqual(moved({ projects: 1 }));
    // A deleted creation stays out: hiding it moves nothing, and neither does restoring it.
    expect((await setPostHidden(site.services, moderator, "creation", writing, true)).ok).toBe(true);
    expect(await shown()).toEqual(moved({ projects: 1 }));
    expect((await setPostHidden(site.services, moderator, "creation", writing, false)).ok).toBe(true);
    expect(await shown()).toEqual(moved({ projects: 1 }));
    expect((await deleteOwnPost(site.services, author, "creation", project)).ok).toBe(true);
    expect(await shown()).toEqual(start);
    expect(await shown()).toEqual(await counted());
  });

  it("50 members sharing at the same moment add exactly 50", async () => {
    const before = await shown();
    const authors = await Promise.all(Array.from({ length: 50 }, () => member()));
    const shared = await Promise.all(authors.map((a) => shareCreation(site.services, a, input("writing"), {})));
    expect(shared.filter((s) => !s.ok)).toEqual([]);
    expect((await shown()).writing).toBe(before.writing! + 50);
    expect(await shown()).toEqual(await counted());
  });

  it("moderators hiding one creation at once, beside its author's delete, take it out of the count once", async () => {
    const author = await member();
    const moderators = await Promise.all(Array.from({ length: 10 }, () => member("moderator")));
    const ids = await Promise.all(Array.from({ length: 5 }, () => share(author, "projects")));
    const before = await shown();
    await Promise.all(
      ids.flatMap((id) => [
        ...moderators.map((m) => setPostHidden(site.services, m, "creation", id, true)),
        deleteOwnPost(site.services, author, "creation", id),
      ]),
    );
    expect((await shown()).projects).toBe(before.projects! - 5);
    expect(await shown()).toEqual(await counted());
    // Each hide that happened was logged once: a hide that found the creation hidden changed and logged nothing.
    const hides = await site.services.db
      .selectFrom("moderation_action")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("subject_type", "=", "creation")
      .where("action", "=", "hide")
      .where("subject_id", "in", ids)
      .executeTakeFirstOrThrow();
    expect(Number(hides.n)).toBe(5);
  });

  it("an author changing a creation's type in two edits at once leaves it counted once, under its final type", async () => {
    const author = await member();
    const id = await share(author, "writing");
    const before = await shown();
    const edits = await Promise.all([
      editCreation(site.services, author, id, input("art"), { image: await png(64, 64) }),
      editCreation(site.services, author, id, input("music"), { audio: wav() }),
    ]);
    expect(edits.filter((e) => !e.ok)).toEqual([]);
    const after = await shown();
    expect(after).toEqual(await counted());
    expect(after.writing).toBe(before.writing! - 1);
    expect(after.art! + after.music!).toBe(before.art! + before.music! + 1);
  });

  it("authors moving creations between two categories in opposite directions at once all succeed", async () => {
    const authors = await Promise.all(Array.from({ length: 20 }, () => member()));
    const ids = await Promise.all(authors.map((a, i) => share(a, i % 2 === 0 ? "writing" : "projects")));
    const before = await shown();
    const edits = await Promise.all(ids.map((id, i) => editCreation(site.services, authors[i]!, id, input(i % 2 === 0 ? "projects" : "writing"), {})));
    expect(edits.filter((e) => !e.ok)).toEqual([]);
    expect(await shown()).toEqual(before);
    expect(await shown()).toEqual(await counted());
  });
});
