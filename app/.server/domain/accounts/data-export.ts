import type { Db } from "../../db/connect";
import { toIso } from "~/lib/dates";
import { avatarFileName, mediaUrl } from "~/lib/media";

// "Download all my data" (issue 11, item 7): everything the member wrote or did, and nothing of
// anyone else's beyond the ids and titles of what they answered or liked. No password hash, no
// session token, no other member's name or address.

const iso = (v: string | Date | null) => (v === null ? null : toIso(v));

export async function exportMemberData(db: Db, memberId: string, now = new Date()) {
  const member = await db
    .selectFrom("member")
    .select(["id", "name", "email", "handle", "bio", "interests", "time_zone", "role", "created_at", "updated_at", "avatar"])
    .where("id", "=", memberId)
    .executeTakeFirst();
  if (!member) return null;
  const [discussions, replies, questions, virtues, answers, creations, comments, likes, helpfulVotes, xp, topics, newsletter, attempts, checkIns] =
    await Promise.all([
      db
        .selectFrom("discussion")
        .select(["id", "topic_id", "title", "slug", "body", "created_at", "edited_at", "deleted_at", "hidden_at"])
        .where("author_id", "=", memberId)
        .orderBy("id")
        .execute(),
      db
        .selectFrom("reply")
        .select(["id", "discussion_id", "body", "created_at", "edited_at", "deleted_at", "hidden_at"])
        .where("author_id", "=", memberId)
        .orderBy("id")
        .execute(),
      db
        .selectFrom("question")
        .select(["id", "title", "body", "accepted_answer_id", "created_at", "edited_at", "deleted_at", "hidden_at"])
        .where("author_id", "=", memberId)
        .orderBy("id")
        .execute(),
      db
        .selectFrom("question_virtue")
        .innerJoin("question", "question.id", "question_virtue.question_id")
        .select(["question_virtue.question_id", "question_virtue.virtue"])
        .where("question.author_id", "=", memberId)
        .execute(),
      db
        .selectFrom("answer")
        .select(["id", "question_id", "body", "helpful_count", "created_at", "edited_at", "deleted_at", "hidden_at"])
        .where("author_id", "=", memberId)
        .orderBy("id")
        .execute(),
      db
        .selectFrom("creation")
        .select([
          "id",
          "title",
          "description",
          "type",
          "body",
          "link_url",
          "image_name",
          "audio_name",
          "like_count",
          "created_at",
          "edited_at",
          "deleted_at",
          "hidden_at",
        ])
        .where("author_id", "=", memberId)
        .orderBy("id")
        .execute(),
      db
        .selectFrom("creation_comment")
        .select(["id", "creation_id", "body", "created_at", "edited_at", "deleted_at", "hidden_at"])
        .where("author_id", "=", memberId)
        .orderBy("id")
        .execute(),
      db.selectFrom("creation_like").select(["creation_id", "created_at"]).where("member_id", "=", memberId).orderBy("creation_id").execute(),
      db.selectFrom("helpful_vote").select(["answer_id", "created_at"]).where("member_id", "=", memberId).orderBy("answer_id").execute(),
      db.selectFrom("xp_event").select(["kind", "subject_id", "points", "created_at"]).where("member_id", "=", memberId).orderBy("id").execute(),
      db
        .selectFrom("topic_member")
        .innerJoin("topic", "topic.id", "topic_member.topic_id")
        .select(["topic.id", "topic.section", "topic.title", "topic_member.joined_at"])
        .where("topic_member.member_id", "=", memberId)
        .orderBy("topic.id")
        .execute(),
      db
        .selectFrom("newsletter_subscription")
        .select(["status", "created_at", "confirmed_at", "unsubscribed_at"])
        .where("email", "=", member.email)
        .executeTakeFirst(),
      db
        .selectFrom("challenge_attempt")
        .innerJoin("challenge", "challenge.id", "challenge_attempt.challenge_id")
        .select([
          "challenge_attempt.id",
          "challenge_attempt.challenge_id",
          "challenge.title",
          "challenge_attempt.status",
          "challenge_attempt.starts_on",
          "challenge_attempt.ends_on",
          "challenge_attempt.check_in_count",
          "challenge_attempt.created_at",
          "challenge_attempt.completed_at",
        ])
        .where("challenge_attempt.member_id", "=", memberId)
        .orderBy("challenge_attempt.id")
        .execute(),
      db
        .selectFrom("challenge_check_in")
        .innerJoin("challenge_attempt", "challenge_attempt.id", "challenge_check_in.attempt_id")
        .select(["challenge_check_in.attempt_id", "challenge_check_in.day", "challenge_check_in.created_at"])
        .where("challenge_attempt.member_id", "=", memberId)
        .orderBy("challenge_check_in.attempt_id")
        .orderBy("challenge_check_in.day")
        .execute(),
    ]);
  const virtuesOf = new Map<number, string[]>();
  for (const v of virtues) virtuesOf.set(v.question_id, [...(virtuesOf.get(v.question_id) ?? []), v.virtue]);
  let interests: unknown;
  try {
    interests = JSON.parse(member.interests);
  } catch {
    interests = [];
  }
  const post = <T extends { created_at: string | Date; edited_at: string | Date | null; deleted_at: string | Date | null; hidden_at: string | Date | null }>(
    row: T,
  ) => ({ ...row, created_at: iso(row.created_at), edited_at: iso(row.edited_at), deleted_at: iso(row.deleted_at), hidden_at: iso(row.hidden_at) });
  return {
    exportedAt: now.toISOString(),
    profile: {
      id: member.id,
      name: member.name,
      email: member.email,
      handle: member.handle,
      bio: member.bio,
      interests,
      timeZone: member.time_zone,
      role: member.role,
      // The largest size of their picture, where the site serves it (ADR 0072).
      picture: member.avatar ? mediaUrl(avatarFileName(member.avatar, 256)) : null,
      joinedAt: iso(member.created_at),
      updatedAt: iso(member.updated_at),
    },
    discussions: discussions.map(post),
    replies: replies.map(post),
    questions: questions.map((q) => ({ ...post(q), virtues: virtuesOf.get(q.id) ?? [] })),
    answers: answers.map((a) => ({ ...post(a), helpful_count: Number(a.helpful_count) })),
    creations: creations.map((c) => ({ ...post(c), like_count: Number(c.like_count) })),
    creationComments: comments.map(post),
    likes: likes.map((l) => ({ creation_id: l.creation_id, created_at: iso(l.created_at) })),
    helpfulVotes: helpfulVotes.map((v) => ({ answer_id: v.answer_id, created_at: iso(v.created_at) })),
    xp: xp.map((e) => ({ kind: e.kind, subject_id: e.subject_id, points: Number(e.points), created_at: iso(e.created_at) })),
    topicMemberships: topics.map((t) => ({ topic_id: t.id, section: t.section, title: t.title, joined_at: iso(t.joined_at) })),
    challengeAttempts: attempts.map((a) => ({
      ...a,
      check_in_count: Number(a.check_in_count),
      created_at: iso(a.created_at),
      completed_at: iso(a.completed_at),
    })),
    checkIns: checkIns.map((c) => ({ attempt_id: c.attempt_id, day: c.day, created_at: iso(c.created_at) })),
    bookmarks: (
      await db
        .selectFrom("bookmark")
        .select(["kind", "post_id", "note", "remind_at", "reminded_at", "created_at"])
        .where("member_id", "=", memberId)
        .orderBy("id")
        .execute()
    ).map((b) => ({ ...b, remind_at: iso(b.remind_at), reminded_at: iso(b.reminded_at), created_at: iso(b.created_at) })),
    // Issue 31: the reactions they gave, the flags they made (with how each was decided) and whom they blocked.
    reactions: (
      await db.selectFrom("reaction").select(["kind", "post_id", "reaction", "created_at"]).where("member_id", "=", memberId).orderBy("created_at").execute()
    ).map((r) => ({ ...r, created_at: iso(r.created_at) })),
    flags: (
      await db
        .selectFrom("flag")
        .select(["kind", "post_id", "reason", "note", "outcome", "created_at", "decided_at"])
        .where("flagger_id", "=", memberId)
        .orderBy("id")
        .execute()
    ).map((f) => ({ ...f, created_at: iso(f.created_at), decided_at: iso(f.decided_at) })),
    blocks: (
      await db
        .selectFrom("member_block")
        .innerJoin("member", "member.id", "member_block.blocked_id")
        .select(["member.handle", "member_block.created_at"])
        .where("member_block.member_id", "=", memberId)
        .orderBy("member_block.created_at")
        .execute()
    ).map((b) => ({ handle: b.handle, created_at: iso(b.created_at) })),
    // Issue 32: what they are writing, the pictures they uploaded into posts, and the earlier
    // versions of their edited posts.
    drafts: (
      await db.selectFrom("draft").select(["place", "label", "url", "body", "updated_at"]).where("member_id", "=", memberId).orderBy("updated_at").execute()
    ).map((d) => ({ ...d, updated_at: iso(d.updated_at) })),
    pictures: (
      await db
        .selectFrom("post_image")
        .select(["display_name", "full_name", "width", "height", "created_at", "attached_at"])
        .where("owner_id", "=", memberId)
        .orderBy("created_at")
        .execute()
    ).map((i) => ({
      url: mediaUrl(i.display_name),
      fullSize: mediaUrl(i.full_name),
      width: Number(i.width),
      height: Number(i.height),
      uploadedAt: iso(i.created_at),
      inAPostSince: iso(i.attached_at),
    })),
    revisions: await revisionsOf(db, {
      discussion: discussions.map((x) => x.id),
      reply: replies.map((x) => x.id),
      question: questions.map((x) => x.id),
      answer: answers.map((x) => x.id),
      creation: creations.map((x) => x.id),
      comment: comments.map((x) => x.id),
    }),
    newsletter: newsletter
      ? {
          status: newsletter.status,
          subscribedAt: iso(newsletter.created_at),
          confirmedAt: iso(newsletter.confirmed_at),
          unsubscribedAt: iso(newsletter.unsubscribed_at),
        }
      : null,
  };
}

/** Ids asked for at once: well under either engine's limit on a statement's parameters. */
const IDS_AT_ONCE = 1000;

/** The earlier versions (issue 32) of the member's own posts, by kind, oldest first. */
async function revisionsOf(db: Db, posts: Record<"discussion" | "reply" | "question" | "answer" | "creation" | "comment", number[]>) {
  const found = [];
  for (const [kind, ids] of Object.entries(posts) as [keyof typeof posts, number[]][]) {
    for (let at = 0; at < ids.length; at += IDS_AT_ONCE) {
      const rows = await db
        .selectFrom("post_revision")
        .select(["kind", "post_id", "title", "body", "written_at", "replaced_at"])
        .where("kind", "=", kind)
        .where("post_id", "in", ids.slice(at, at + IDS_AT_ONCE))
        .orderBy("id")
        .execute();
      found.push(...rows.map((r) => ({ ...r, written_at: iso(r.written_at), replaced_at: iso(r.replaced_at) })));
    }
  }
  return found;
}

export type MemberDataExport = NonNullable<Awaited<ReturnType<typeof exportMemberData>>>;
