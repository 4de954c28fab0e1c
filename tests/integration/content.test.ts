import { describe, expect, it } from "vitest";
import { insertDemoContent } from "~/.server/db/demo-content";
import { featuredAdvisorSummaries, questionWithAnswers, questionSummaries } from "~/.server/domain/council/council-read-model";
import { creationWithComments, creationSummaries, listCategories } from "~/.server/domain/forge/forge-read-model";
import { featuredDiscussionSummaries, sectionTopics } from "~/.server/domain/forum/section-read-model";
import { topicWithDiscussions } from "~/.server/domain/forum/forum-read-model";
import { demoSite } from "./demo-site";
import { ENGINE } from "./test-services";

const demo = demoSite();

describe(`demo content and the seed screens' data on ${ENGINE}`, () => {
  it("is added once: a second start adds nothing", async () => {
    expect(await insertDemoContent(demo.site.services.db)).toBe(false);
    const topics = await demo.site.services.db.selectFrom("topic").select("id").execute();
    expect(topics).toHaveLength(12);
  });

  it("has six topics per section with posts and members counted from the rows", async () => {
    const { db } = demo.site.services;
    for (const section of ["monastery", "battlefield"] as const) {
      const topics = await sectionTopics(db, section);
      expect(topics).toHaveLength(6);
      for (const topic of topics) {
        const discussions = await db.selectFrom("discussion").select("id").where("topic_id", "=", topic.id).execute();
        const replies = await db
          .selectFrom("reply")
          .innerJoin("discussion", "discussion.id", "reply.discussion_id")
          .select("reply.id")
          .where("discussion.topic_id", "=", topic.id)
          .execute();
        const members = await db.selectFrom("topic_member").select("member_id").where("topic_id", "=", topic.id).execute();
        expect(topic.posts).toBe(discussions.length + replies.length);
        expect(topic.discussions).toBe(discussions.length);
        expect(topic.replies).toBe(replies.length);
        expect(topic.members).toBe(members.length);
      }
    }
  });

  it("features the most replied discussions of the last 7 days, and a moderator's pick first", async () => {
    const { db } = demo.site.services;
    const featured = await featuredDiscussionSummaries(db, { section: "battlefield", limit: 3 });
    expect(featured.map((d) => d.title)[0]).toBe("Form over weight: a deadlift checklist");
    expect(featured.every((d) => d.section === "battlefield")).toBe(true);
    // A discussion older than 7 days is not featured by replies...
    expect(featured.map((d) => d.title)).not.toContain("Thirty days of cold showers: notes");
    // ...unless a moderator features it.
    const cold = await db.selectFrom("discussion").select("id").where("title", "=", "Thirty days of cold showers: notes").executeTakeFirstOrThrow();
    await db.updateTable("discussion").set({ featured_at: new Date().toISOString() }).where("id", "=", cold.id).execute();
    const after = await featuredDiscussionSummaries(db, { section: "battlefield", limit: 3 });
    expect(after[0].title).toBe("Thirty days of cold showers: notes");
    expect(after).toHaveLength(3);
    await db.updateTable("discussion").set({ featured_at: null }).where("id", "=", cold.id).execute();
  });

  it("shows a topic with its discussions, newest activity first", async () => {
    const page = await topicWithDiscussions(demo.site.services.db, null, "monastery", "morning-meditation", { kind: "first" });
    expect(page?.topic.title).toBe("Morning Meditation");
    expect(page?.discussions[0].author.name).toBe("Priya Nair");
    expect(await topicWithDiscussions(demo.site.services.db, null, "battlefield", "morning-meditation", { kind: "first" })).toBeNull();
  });

  it("has four Forge categories with live counts and five creations", async () => {
    const { db } = demo.site.services;
    const categories = await listCategories(db);
    expect(categories.map((c) => c.label)).toEqual(["Writing", "Visual Art", "Music", "Projects"]);
    expect(categories.map((c) => c.count)).toEqual([2, 1, 1, 1]);
    const creations = await creationSummaries(db, { limit: 5 });
    expect(creations).toHaveLength(5);
    const enso = creations.find((c) => c.title === "Enso Series: Twelve Circles")!;
    expect(enso).toMatchObject({ likes: 4, comments: 1, type: "art" });
    expect((await creationSummaries(db, { type: "music" })).map((c) => c.type)).toEqual(["music"]);
    const page = await creationWithComments(db, enso.id);
    expect(page?.comments).toHaveLength(1);
  });

  it("has five questions with virtues, and three advisors ranked by accepted answers", async () => {
    const { db } = demo.site.services;
    const questions = await questionSummaries(db, 5);
    expect(questions).toHaveLength(5);
    expect(questions[0].virtues).toEqual(["discipline", "resilience"]);
    expect(questions[0].answers).toBe(2);
    for (const q of questions) {
      const views = await db.selectFrom("question_view").select("viewer_key").where("question_id", "=", q.id).execute();
      expect(q.views).toBe(views.length);
    }
    expect(questions[0].views).toBe(48);

    const advisors = await featuredAdvisorSummaries(db, 3);
    expect(advisors.map((a) => a.name)).toEqual(["Amara Okafor", "Marcus Reyes", "Mei Tanaka"]);
    expect(advisors[1]).toMatchObject({ path: "warrior", questionsAnswered: 2 });
    expect(advisors[0].virtues.length).toBeGreaterThan(0);

    const page = await questionWithAnswers(db, questions[0].id);
    expect(page?.answers[0].accepted).toBe(true);
    expect(page?.answers[0].advisor?.path).toBe("warrior");
  });

  it("gives demo members various ranks from the XP ledger", async () => {
    const questions = await questionSummaries(demo.site.services.db, 5);
    const ranks = new Set(questions.map((q) => q.author.rank));
    expect(ranks.size).toBeGreaterThan(2);
  });
});

describe(`Council filters on ${ENGINE}`, () => {
  it("filters questions by virtue and shows the unanswered ones", async () => {
    const { db } = demo.site.services;
    const wisdom = await questionSummaries(db, 20, { virtue: "wisdom" });
    expect(wisdom.map((q) => q.title)).toEqual(["Which Stoic text should a beginner read first?"]);
    const unanswered = await questionSummaries(db, 20, { unanswered: true });
    expect(unanswered.map((q) => q.title)).toEqual(["How do I keep promises to myself when no one is watching?"]);
    expect(await questionSummaries(db, 20, { virtue: "compassion", unanswered: true })).toEqual([]);
  });
});
