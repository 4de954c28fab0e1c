import { describe, expect, it } from "vitest";
import type { Viewer } from "~/.server/context";
import { tag, withPageTags } from "~/.server/cache/page-tags";
import { registerMember, signInMember, signOutMember } from "~/.server/domain/accounts/account-service";
import { memberProfile } from "~/.server/domain/accounts/profile-read-model";
import { deleteAccount, saveProfile } from "~/.server/domain/accounts/settings-service";
import { challengePage, publishedChallenges } from "~/.server/domain/challenges/challenge-read-model";
import { checkIn, createChallenge, joinChallenge, reviewProposal } from "~/.server/domain/challenges/challenge-service";
import { featuredAdvisorSummaries, questionSummaries, questionWithAnswers } from "~/.server/domain/council/council-read-model";
import { acceptAnswer, deleteAnswer, editAnswer, editQuestion, grantAdvisor, revokeAdvisor, setHelpful } from "~/.server/domain/council/council-service";
import { eventLists, eventPage, feedEvents } from "~/.server/domain/events/event-read-model";
import { cancelEvent, editEvent, rsvp } from "~/.server/domain/events/event-service";
import { shareCreation } from "~/.server/domain/forge/creation-service";
import { commentOnCreation, deleteComment, deleteCreation, editComment, moderateForge, setLiked } from "~/.server/domain/forge/forge-engagement";
import { creationSummaries, creationWithComments } from "~/.server/domain/forge/forge-read-model";
import { discussionWithReplies, topicWithDiscussions } from "~/.server/domain/forum/forum-read-model";
import { createTopic, deleteForumPost, editForumPost, moderate, postReply, setTopicMembership } from "~/.server/domain/forum/forum-service";
import { featuredDiscussionSummaries, sectionTopics } from "~/.server/domain/forum/section-read-model";
import { subscribe } from "~/.server/domain/newsletter/newsletter-service";
import type { Outcome } from "~/.server/domain/outcome";
import { setPostHidden } from "~/.server/domain/posts/pipeline";
import { rankById } from "~/lib/ranks";
import { joinSchema } from "~/schemas/account";
import { advisor, answer, challenge, discussion, event, member, question, topic } from "../factories";
import { succeeded } from "../factories/succeeded";
import { ENGINE } from "./test-services";
import { testSiteForFile } from "./file-site";

/*
 * What each read model says a page shows and what each domain write says it changed (issue 13,
 * the anonymous page cache): the real calls on a real database, inside one request's tag store.
 * The sets are compared whole, so a write that says too little (a stale page) or too much (every
 * page of a section after a reply elsewhere) fails alike.
 */

const site = testSiteForFile();
const db = () => site.services.db;
const key = () => crypto.randomUUID();

/** Runs one domain call as one request would, and returns what it read and wrote. */
async function tagsOf<T>(call: () => Promise<T>) {
  const tags = { reads: new Set<string>(), writes: new Set<string>() };
  const value = await withPageTags(tags, call);
  return { value, reads: [...tags.reads].sort(), writes: [...tags.writes].sort() };
}
const sorted = (...tags: string[]) => [...new Set(tags)].sort();
const ok = <T>(outcome: Outcome<T>) => succeeded("the call", outcome);

const sage = () => member(db(), { xp: rankById("sage").minXp });
const acolyte = () => member(db(), { xp: rankById("acolyte").minXp });
const moderator = () => member(db(), { role: "moderator" });

describe(`page-cache tags of forum writes on ${ENGINE}`, () => {
  it("a new topic changes its section; joining and leaving it change the topic and its section", async () => {
    const creator = await sage();
    const created = await tagsOf(() => createTopic(site.services, creator, "battlefield", { title: "Tags and topics", description: "A test." }));
    const id = ok(created.value).id;
    expect(created.writes).toEqual(sorted(tag.section("battlefield"), tag.topic(id)));

    const joiner = await member(db());
    expect((await tagsOf(() => setTopicMembership(site.services, joiner, id, true))).writes).toEqual(sorted(tag.topic(id), tag.section("battlefield")));
    expect((await tagsOf(() => setTopicMembership(site.services, joiner, id, false))).writes).toEqual(sorted(tag.topic(id), tag.section("battlefield")));
  });

  it("a discussion, a reply, their edits, deletions and moderation change the discussion, its topic, its section and the author's profile, nothing else", async () => {
    const where = await topic(site.services, { section: "monastery" });
    const author = await acolyte();
    const started = await tagsOf(() => discussion(site.services, { topic: where, author }));
    const d = started.value.id;
    const forum = [tag.discussion(d), tag.topic(where.id), tag.section("monastery")];
    // A discussion's own writes also change its section's related lists (issue 30); a reply's never.
    const related = tag.related(tag.section("monastery"));
    expect(started.writes).toEqual(sorted(...forum, related, tag.profile(author.id)));

    const replier = await member(db());
    const replied = await tagsOf(() => postReply(site.services, replier, d, { body: "A reply.", submissionKey: key() }));
    const r = ok(replied.value).id;
    expect(replied.writes).toEqual(sorted(...forum, tag.profile(replier.id)));

    expect((await tagsOf(() => editForumPost(site.services, replier, "reply", r, { body: "Edited reply." }))).writes).toEqual(
      sorted(...forum, tag.profile(replier.id)),
    );
    expect((await tagsOf(() => editForumPost(site.services, author, "discussion", d, { title: "A new title", body: "New body." }))).writes).toEqual(
      sorted(...forum, related, tag.profile(author.id)),
    );

    const mod = await moderator();
    for (const action of ["lock", "unlock", "feature", "unfeature"] as const) {
      expect((await tagsOf(() => moderate(site.services, mod, action, "discussion", d))).writes, action).toEqual(sorted(...forum));
    }
    expect((await tagsOf(() => moderate(site.services, mod, "hide", "reply", r))).writes).toEqual(sorted(...forum, tag.profile(replier.id)));
    expect((await tagsOf(() => moderate(site.services, mod, "restore", "reply", r))).writes).toEqual(sorted(...forum, tag.profile(replier.id)));
    expect((await tagsOf(() => moderate(site.services, mod, "hide", "discussion", d))).writes).toEqual(sorted(...forum, related, tag.profile(author.id)));
    expect((await tagsOf(() => moderate(site.services, mod, "restore", "discussion", d))).writes).toEqual(sorted(...forum, related, tag.profile(author.id)));

    expect((await tagsOf(() => deleteForumPost(site.services, replier, "reply", r))).writes).toEqual(sorted(...forum, tag.profile(replier.id)));
    expect((await tagsOf(() => deleteForumPost(site.services, author, "discussion", d))).writes).toEqual(sorted(...forum, related, tag.profile(author.id)));
  });

  it("a refused write says nothing, so it invalidates nothing", async () => {
    const d = (await discussion(site.services)).id;
    const stranger = await member(db());
    const refused = await tagsOf(() => moderate(site.services, stranger, "lock", "discussion", d));
    expect(refused.value.ok).toBe(false);
    expect(refused.writes).toEqual([]);
  });
});

describe(`page-cache tags of Council writes on ${ENGINE}`, () => {
  it("questions and answers change the question and the Council; votes the question alone; the XP they move, the profile", async () => {
    const asker = await acolyte();
    const asked = await tagsOf(() => question(site.services, { asker }));
    const q = asked.value.id;
    expect(asked.writes).toEqual(sorted(tag.question(q), tag.council, tag.related("council"), tag.profile(asker.id)));

    const answerer = await member(db());
    const answered = await tagsOf(() => answer(site.services, q, { author: answerer }));
    const a = answered.value.id;
    expect(answered.writes).toEqual(sorted(tag.question(q), tag.council, tag.profile(answerer.id)));

    expect((await tagsOf(() => acceptAnswer(site.services, asker, q, a))).writes).toEqual(sorted(tag.question(q), tag.council, tag.profile(answerer.id)));
    const voter = await acolyte();
    expect((await tagsOf(() => setHelpful(site.services, voter, a, true))).writes).toEqual(sorted(tag.question(q), tag.profile(answerer.id)));
    expect((await tagsOf(() => setHelpful(site.services, voter, a, false))).writes).toEqual(sorted(tag.question(q), tag.profile(answerer.id)));

    expect((await tagsOf(() => editQuestion(site.services, asker, q, { title: "Edited question", body: "Edited.", virtues: ["wisdom"] }))).writes).toEqual(
      sorted(tag.question(q), tag.council, tag.related("council"), tag.profile(asker.id)),
    );
    expect((await tagsOf(() => editAnswer(site.services, answerer, a, { body: "Edited answer." }))).writes).toEqual(
      sorted(tag.question(q), tag.council, tag.profile(answerer.id)),
    );
    const mod = await moderator();
    expect((await tagsOf(() => setPostHidden(site.services, mod, "answer", a, true))).writes).toEqual(
      sorted(tag.question(q), tag.council, tag.profile(answerer.id)),
    );
    expect((await tagsOf(() => setPostHidden(site.services, mod, "answer", a, false))).writes).toEqual(
      sorted(tag.question(q), tag.council, tag.profile(answerer.id)),
    );
    expect((await tagsOf(() => deleteAnswer(site.services, answerer, a))).writes).toEqual(sorted(tag.question(q), tag.council, tag.profile(answerer.id)));
  });

  it("granting and revoking an advisor change the Council, the member wherever they are an author, and their own pages", async () => {
    const m = await member(db());
    const changed = sorted(tag.council, tag.member(m.id), tag.viewer(m.id));
    expect((await tagsOf(() => grantAdvisor(db(), m.email, "monk", "Breath"))).writes).toEqual(changed);
    expect((await tagsOf(() => revokeAdvisor(db(), m.email))).writes).toEqual(changed);
  });
});

describe(`page-cache tags of Forge writes on ${ENGINE}`, () => {
  it("creations, likes and comments change the creation and the Forge; XP the profile", async () => {
    const author = await acolyte();
    const shared = await tagsOf(() =>
      shareCreation(site.services, author, { title: "A poem", description: "Short.", type: "writing", body: "Words.", submissionKey: key() }, {}),
    );
    const c = ok(shared.value).id;
    const forge = [tag.creation(c), tag.forge];
    expect(shared.writes).toEqual(sorted(...forge, tag.related("forge"), tag.profile(author.id)));

    const fan = await acolyte();
    expect((await tagsOf(() => setLiked(site.services, fan, c, true))).writes).toEqual(sorted(...forge, tag.profile(author.id)));
    expect((await tagsOf(() => setLiked(site.services, fan, c, false))).writes).toEqual(sorted(...forge, tag.profile(author.id)));

    const commented = await tagsOf(() => commentOnCreation(site.services, fan, c, { body: "Lovely.", submissionKey: key() }));
    const comment = ok(commented.value).id;
    expect(commented.writes).toEqual(sorted(...forge, tag.profile(fan.id)));
    expect((await tagsOf(() => editComment(site.services, fan, comment, { body: "Lovely indeed." }))).writes).toEqual(sorted(...forge, tag.profile(fan.id)));
    const mod = await moderator();
    expect((await tagsOf(() => moderateForge(site.services, mod, "comment", comment, true))).writes).toEqual(sorted(...forge, tag.profile(fan.id)));
    expect((await tagsOf(() => moderateForge(site.services, mod, "comment", comment, false))).writes).toEqual(sorted(...forge, tag.profile(fan.id)));
    expect((await tagsOf(() => deleteComment(site.services, fan, comment))).writes).toEqual(sorted(...forge, tag.profile(fan.id)));
    const related = tag.related("forge");
    expect((await tagsOf(() => moderateForge(site.services, mod, "creation", c, true))).writes).toEqual(sorted(...forge, related, tag.profile(author.id)));
    expect((await tagsOf(() => moderateForge(site.services, mod, "creation", c, false))).writes).toEqual(sorted(...forge, related, tag.profile(author.id)));
    expect((await tagsOf(() => deleteCreation(site.services, author, c))).writes).toEqual(sorted(...forge, related, tag.profile(author.id)));
  });
});

describe(`page-cache tags of event writes on ${ENGINE}`, () => {
  it("creating, editing, cancelling and answering change the event and the list", async () => {
    const created = await tagsOf(() => event(site.services, { capacity: 1 }));
    const { id, host } = created.value;
    const events = [tag.events, tag.event(id)];
    expect(created.writes).toEqual(sorted(...events));

    const [first, second] = [await member(db()), await member(db())];
    expect((await tagsOf(() => rsvp(site.services, first, id, "going"))).writes).toEqual(sorted(...events));
    expect((await tagsOf(() => rsvp(site.services, second, id, "going"))).writes).toEqual(sorted(...events)); // waitlisted
    expect((await tagsOf(() => rsvp(site.services, first, id, "not_going"))).writes).toEqual(sorted(...events)); // the second moves up

    const startsAt = new Date(Date.now() + 72 * 3_600_000);
    const edited = await tagsOf(() =>
      editEvent(site.services, host, id, {
        title: "Evening sit",
        description: "Moved.",
        path: "monk",
        startsAt,
        endsAt: new Date(startsAt.getTime() + 3_600_000),
        timeZone: "Europe/Berlin",
        onlineUrl: null,
        place: "The park",
        capacity: 5,
      }),
    );
    expect(ok(edited.value).id).toBe(id);
    expect(edited.writes).toEqual(sorted(...events));
    expect((await tagsOf(() => cancelEvent(site.services, host, id))).writes).toEqual(sorted(...events));
  });
});

describe(`page-cache tags of challenge writes on ${ENGINE}`, () => {
  const input = (title: string) => ({
    title,
    description: "Ten quiet minutes.",
    path: "monk" as const,
    virtues: ["wisdom" as const],
    lengthDays: 2,
    checkInsRequired: 1,
    submissionKey: key(),
  });

  // A proposal and a decline show on no kept page, but their rows are in the tables every list of
  // challenges reads, so they name those lists' tags too (the page-cache audit, ADR 0051).
  it("publishing shows a challenge; a proposal and a decline name the challenges' tags though they show nowhere", async () => {
    const host = await advisor(site.services);
    const published = await tagsOf(() => createChallenge(site.services, host, input("Published at once")));
    expect(ok(published.value).status).toBe("published");
    expect(published.writes).toEqual([tag.challenges]);

    const proposer = await sage();
    const proposed = await tagsOf(() => createChallenge(site.services, proposer, input("A proposal")));
    expect(proposed.writes).toEqual([tag.challenges]);
    const proposal = ok(proposed.value).id;
    expect((await tagsOf(() => reviewProposal(site.services, host, proposal, "publish"))).writes).toEqual(sorted(tag.challenges, tag.challenge(proposal)));

    const declined = ok(await createChallenge(site.services, proposer, input("Declined"))).id;
    expect((await tagsOf(() => reviewProposal(site.services, host, declined, "decline"))).writes).toEqual(sorted(tag.challenges, tag.challenge(declined)));
  });

  it("joining and checking in change the challenge and the list; the check-in's XP, the profile", async () => {
    const c = await challenge(db(), { lengthDays: 2, checkInsRequired: 1 });
    const m = await member(db());
    expect((await tagsOf(() => joinChallenge(site.services, m, c.id))).writes).toEqual(sorted(tag.challenge(c.id), tag.challenges));
    const checked = await tagsOf(() => checkIn(site.services, m, c.id));
    expect(ok(checked.value).completed).toBe(true);
    expect(checked.writes).toEqual(sorted(tag.challenge(c.id), tag.challenges, tag.profile(m.id)));
  });
});

describe(`page-cache tags of account writes on ${ENGINE}`, () => {
  const values = (email: string) =>
    joinSchema.parse({ fullName: "Tag Tester", email, password: "Secret123", confirmPassword: "Secret123", termsAccepted: true });
  const visitor = (n: number) => ({ headers: new Headers({ "user-agent": "vitest" }), ip: `10.77.0.${n}` });

  it("joining, signing in and out and subscribing change nothing public; a new name changes the member; deleting the account, everything", async () => {
    const email = `tags-${key()}@example.org`;
    const joined = await tagsOf(() => registerMember(site.services, values(email), visitor(1)));
    expect(joined.value.ok).toBe(true);
    expect(joined.writes).toEqual([tag.nothing]);
    const signedIn = await tagsOf(() => signInMember(site.services, { email, password: "Secret123", rememberMe: false }, visitor(2)));
    expect(signedIn.value.ok).toBe(true);
    expect(signedIn.writes).toEqual([tag.nothing]);
    const cookie = (signedIn.value as { headers: Headers }).headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    expect((await tagsOf(() => subscribe(site.services, email))).writes).toEqual([tag.nothing]);

    const viewer: Viewer = { ...(joined.value as { viewer: Viewer }).viewer };
    expect((await tagsOf(() => saveProfile(site.services, viewer, { fullName: "Tag Renamed", bio: "", interests: {}, timeZone: "UTC" }))).writes).toEqual([
      tag.member(viewer.id),
    ]);
    expect((await tagsOf(() => signOutMember(site.services, new Headers({ cookie: "" })).catch(() => null))).writes).toEqual([tag.nothing]);

    const deleted = await tagsOf(() => deleteAccount(site.services, viewer, { currentPassword: "Secret123" }, new Headers({ cookie })));
    expect(deleted.value.ok).toBe(true);
    expect(deleted.writes).toEqual(sorted(tag.member(viewer.id), tag.site));
  });
});

describe(`page-cache tags each read model names on ${ENGINE}`, () => {
  it("sections, `/`'s featured lists, topics and discussions read their own tags and each author's", async () => {
    const where = await topic(site.services, { section: "battlefield" });
    const author = await acolyte();
    const d = await discussion(site.services, { topic: where, author });
    const replier = await member(db());
    ok(await postReply(site.services, replier, d.id, { body: "Hello.", submissionKey: key() }));

    expect((await tagsOf(() => sectionTopics(db(), "battlefield"))).reads).toEqual([tag.section("battlefield")]);
    const featured = await tagsOf(() => featuredDiscussionSummaries(db(), { limit: 50 }));
    expect(featured.reads).toEqual(expect.arrayContaining([tag.section("monastery"), tag.section("battlefield"), tag.member(author.id)]));
    expect((await tagsOf(() => featuredDiscussionSummaries(db(), { section: "battlefield", limit: 50 }))).reads).not.toContain(tag.section("monastery"));

    const request = { kind: "first" } as const;
    expect((await tagsOf(() => topicWithDiscussions(db(), null, "battlefield", where.id, request))).reads).toEqual(
      sorted(tag.topic(where.id), tag.member(author.id)),
    );
    expect((await tagsOf(() => discussionWithReplies(db(), null, d.id, request))).reads).toEqual(
      sorted(tag.discussion(d.id), tag.member(author.id), tag.member(replier.id)),
    );
    // A page that does not exist reads nothing, so no cache keeps it.
    expect((await tagsOf(() => discussionWithReplies(db(), null, 987_654, request))).reads).toEqual([]);
  });

  it("the Council, the Forge, events, challenges and profiles read their own tags", async () => {
    const asker = await acolyte();
    const q = (await question(site.services, { asker })).id;
    const answerer = await member(db());
    await answer(site.services, q, { author: answerer });
    expect((await tagsOf(() => questionWithAnswers(db(), q))).reads).toEqual(sorted(tag.question(q), tag.member(asker.id), tag.member(answerer.id)));
    expect((await tagsOf(() => questionSummaries(db(), 1))).reads).toEqual(sorted(tag.council, tag.member(asker.id)));
    const host = await advisor(site.services);
    const advisors = await tagsOf(() => featuredAdvisorSummaries(db(), 50));
    expect(advisors.reads).toEqual(expect.arrayContaining([tag.council, tag.member(host.id)]));

    const maker = await acolyte();
    const c = ok(
      await shareCreation(site.services, maker, { title: "Art", description: "A sketch.", type: "writing", body: "Words.", submissionKey: key() }, {}),
    ).id;
    expect((await tagsOf(() => creationWithComments(db(), c))).reads).toEqual(sorted(tag.creation(c), tag.member(maker.id)));
    expect((await tagsOf(() => creationSummaries(db(), { limit: 1 }))).reads).toEqual(sorted(tag.forge, tag.member(maker.id)));

    const e = await event(site.services, { host });
    expect((await tagsOf(() => eventPage(db(), e.id, null))).reads).toEqual(sorted(tag.event(e.id), tag.member(host.id)));
    const lists = await tagsOf(() => eventLists(db(), null));
    expect(lists.reads).toEqual(expect.arrayContaining([tag.events, tag.member(host.id)]));
    expect((await tagsOf(() => feedEvents(db()))).reads).toEqual(expect.arrayContaining([tag.events, tag.member(host.id)]));

    const ch = await challenge(db());
    expect((await tagsOf(() => publishedChallenges(db(), null))).reads).toEqual([tag.challenges]);
    expect((await tagsOf(() => challengePage(db(), ch.id, null))).reads).toEqual([tag.challenge(ch.id)]);

    const profiled = await member(db());
    expect((await tagsOf(() => memberProfile(db(), profiled.handle))).reads).toEqual(sorted(tag.member(profiled.id), tag.profile(profiled.id)));
    expect((await tagsOf(() => memberProfile(db(), "nobody-has-this-handle"))).reads).toEqual([]);
  });
});
