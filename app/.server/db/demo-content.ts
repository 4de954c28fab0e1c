import { randomUUID } from "node:crypto";
import { sql, type Kysely, type Transaction } from "kysely";
import { rankFor, type VirtueLevels } from "~/lib/ranks";
import { isVirtue, virtueLevel } from "~/lib/virtues";
import { slugify } from "~/lib/slug";
import { excerptOf } from "~/lib/text";
import { databaseMediaStore } from "../media/media-store-database";
import { processImage } from "../media/image-upload";
import { loadSharp } from "../media/sharp";
import { processAudio } from "../media/process-audio";
import { demoSoundWav } from "./demo-sound";
import { utcToZoned, zonedToUtc } from "~/lib/time-zones";
import type { Database } from "./schema";
import { rebuildReplyHours } from "./reply-hours";
import { rebuildCreationCounts } from "./creation-type-counts";
import { rebuildSearchIndex } from "./search/search-documents";
import { renderMarkdown } from "../markdown";
import { XP, type XpKind } from "~/lib/xp";
import { ADVISORS, CHALLENGES, DEMO_ART_SVG, CREATIONS, DISCUSSIONS, EVENTS, MEMBERS, QUESTIONS, TOPICS } from "./demo-data";

/**
 * Demo content for a first start (PRODUCT.md §6): how the demo in demo-data.ts is written. Enough
 * real rows to fill every seed screen: six topics per section, featured discussions, four Forge
 * categories, five creations, three advisors, five questions, eight challenges, four upcoming
 * events (two per path, dated from the moment of insertion), written by demo members of various
 * ranks. Demo members have no password, so nobody can sign in as them. Counts are computed from
 * the rows, never written as constants; XP is what the progression rules pay for each kind.
 */

const DAY = 24 * 60 * 60 * 1000;

/**
 * The demo's Visual Art gets a real image (demo-data.ts's ink circle, rendered by sharp from SVG),
 * stored the way an upload is, so the Forge shows images out of the box.
 */
async function demoImage(trx: Transaction<Database>, creationId: number, ownerId: string) {
  const sharp = await loadSharp();
  const image = await processImage(await sharp(Buffer.from(DEMO_ART_SVG)).png().toBuffer());
  if (!image.ok) throw new Error(`demo image: ${image.message}`);
  const store = databaseMediaStore(trx);
  const { full, display, thumb } = image.value;
  for (const file of [full, display, thumb]) await store.put(trx, { ...file, ownerId });
  await trx
    .updateTable("creation")
    .set({ image_name: full.name, image_display_name: display.name, image_thumb_name: thumb.name })
    .where("id", "=", creationId)
    .execute();
}

/**
 * The demo's Music gets a real sound to play: a short tune synthesized in demo-sound.ts, checked and
 * stored by the same pipeline as an uploaded file, so the creation page plays it like any upload.
 */
async function demoAudio(trx: Transaction<Database>, creationId: number, ownerId: string) {
  const audio = await processAudio(demoSoundWav());
  if (!audio.ok) throw new Error(`demo audio: ${audio.message}`);
  await databaseMediaStore(trx).put(trx, { ...audio.value, ownerId });
  await trx.updateTable("creation").set({ audio_name: audio.value.name }).where("id", "=", creationId).execute();
}

/**
 * The local date (YYYY-MM-DD, in the event's time zone) an event falls on: so many days after `now`,
 * or the first of that weekday after today there (one to seven days on, so it is still to come).
 */
export function eventDay(now: Date, when: { daysAhead: number } | { weekday: number }, timeZone: string): string {
  if ("daysAhead" in when) return utcToZoned(new Date(now.getTime() + when.daysAhead * DAY), timeZone).slice(0, 10);
  const today = utcToZoned(now, timeZone).slice(0, 10);
  const local = new Date(`${today}T00:00:00Z`);
  const ahead = (when.weekday - local.getUTCDay() + 7) % 7 || 7;
  return new Date(local.getTime() + ahead * DAY).toISOString().slice(0, 10);
}

export async function hasContent(db: Kysely<Database>): Promise<boolean> {
  const row = await db.selectFrom("topic").select("id").limit(1).executeTakeFirst();
  return row !== undefined;
}

/** Fills an empty database with the demo; does nothing if any topic exists. One transaction. */
export async function insertDemoContent(db: Kysely<Database>, now = new Date()): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    if (await hasContent(trx)) return false;
    await fill(trx, now);
    return true;
  });
}

async function fill(trx: Transaction<Database>, now: Date) {
  const at = (daysAgo: number, minutes = 0) => new Date(now.getTime() - daysAgo * DAY + minutes * 60_000).toISOString();
  const ids = new Map<string, string>();
  const joined = at(60);
  for (const m of MEMBERS) {
    const id = randomUUID();
    ids.set(m.key, id);
    await trx
      .insertInto("member")
      .values({
        id,
        name: m.name,
        email: `${m.key}@demo.innerpeace.invalid`,
        email_verified: false,
        image: null,
        created_at: joined,
        updated_at: joined,
        handle: m.key,
        bio: m.bio,
        interests: JSON.stringify(m.interests),
        role: "member",
      })
      .execute();
    if (m.history > 0) {
      await trx.insertInto("xp_event").values({ member_id: id, kind: "demo.history", subject_id: "demo", points: m.history, created_at: joined }).execute();
    }
  }
  const member = (key: string) => ids.get(key)!;
  const award = async (key: string, kind: XpKind, subject: string | number, when: string) => {
    await trx
      .insertInto("xp_event")
      .values({ member_id: member(key), kind, subject_id: String(subject), points: XP[kind], created_at: when })
      .execute();
  };

  for (const a of ADVISORS) {
    await trx
      .insertInto("advisor")
      .values({ member_id: member(a.key), path: a.path, specialty: a.specialty, granted_at: joined })
      .execute();
  }

  const day = (daysAgo: number) => at(daysAgo).slice(0, 10);
  for (const [index, c] of CHALLENGES.entries()) {
    const published = at(45, index);
    const challenge = await trx
      .insertInto("challenge")
      .values({
        title: c.title,
        description: c.description,
        path: c.path,
        length_days: c.length,
        check_ins_required: c.required,
        status: "published",
        created_by: member(c.by),
        created_at: published,
        published_at: published,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await trx
      .insertInto("challenge_virtue")
      .values(c.virtues.map((virtue) => ({ challenge_id: challenge.id, virtue })))
      .execute();
    for (const r of c.running) {
      const attempt = await trx
        .insertInto("challenge_attempt")
        .values({
          challenge_id: challenge.id,
          member_id: member(r.member),
          status: "active",
          starts_on: day(r.startedDaysAgo),
          ends_on: day(r.startedDaysAgo - c.length + 1),
          check_in_count: r.days.length,
          created_at: at(r.startedDaysAgo),
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      await trx
        .insertInto("challenge_check_in")
        .values(r.days.map((d) => ({ attempt_id: attempt.id, day: day(d), created_at: at(d) })))
        .execute();
    }
    for (const [i, key] of c.completedBy.entries()) {
      const started = 40 - i * 2;
      await trx
        .insertInto("challenge_attempt")
        .values({
          challenge_id: challenge.id,
          member_id: member(key),
          status: "completed",
          starts_on: day(started),
          ends_on: day(started - c.length + 1),
          check_in_count: c.required,
          created_at: at(started),
          completed_at: at(started - c.required + 1),
        })
        .execute();
    }
  }

  for (const [index, t] of TOPICS.entries()) {
    await trx
      .insertInto("topic")
      .values({
        id: t.id,
        section: t.section,
        title: t.title,
        description: t.description,
        created_by: null,
        created_at: at(50, index),
        last_activity_at: at(50, index),
      })
      .execute();
  }
  // Every demo member follows the topics of the sections that match their interests.
  for (const m of MEMBERS) {
    for (const t of TOPICS) {
      const monk = m.interests.includes("meditation") || m.interests.includes("philosophy");
      const warrior = m.interests.includes("fitness");
      if ((t.section === "monastery" && monk) || (t.section === "battlefield" && warrior)) {
        await trx
          .insertInto("topic_member")
          .values({ topic_id: t.id, member_id: member(m.key), joined_at: joined })
          .execute();
      }
    }
  }

  for (const d of DISCUSSIONS) {
    const created = at(d.daysAgo);
    const discussion = await trx
      .insertInto("discussion")
      .values({
        topic_id: d.topic,
        author_id: member(d.author),
        title: d.title,
        slug: slugify(d.title),
        body: d.body,
        body_html: renderMarkdown(d.body),
        excerpt: excerptOf(d.body),
        created_at: created,
        last_activity_at: created,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await award(d.author, "discussion.started", discussion.id, created);
    let last = created;
    for (const [i, [author, body]] of d.replies.entries()) {
      last = at(d.daysAgo, 30 * (i + 1));
      const reply = await trx
        .insertInto("reply")
        .values({ discussion_id: discussion.id, author_id: member(author), body, body_html: renderMarkdown(body), created_at: last })
        .returning("id")
        .executeTakeFirstOrThrow();
      await award(author, "reply.posted", reply.id, last);
    }
    await trx.updateTable("discussion").set({ last_activity_at: last }).where("id", "=", discussion.id).execute();
  }

  for (const c of CREATIONS) {
    const created = at(c.daysAgo);
    const creation = await trx
      .insertInto("creation")
      .values({
        author_id: member(c.author),
        title: c.title,
        description: c.description,
        type: c.type,
        body: c.body,
        body_html: renderMarkdown(c.body),
        link_url: c.link ?? null,
        created_at: created,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await award(c.author, "creation.shared", creation.id, created);
    if (c.type === "art") await demoImage(trx, creation.id, member(c.author));
    if (c.type === "music") await demoAudio(trx, creation.id, member(c.author));
    for (const liker of c.likes) {
      await trx
        .insertInto("creation_like")
        .values({ creation_id: creation.id, member_id: member(liker), created_at: created })
        .execute();
      await award(c.author, "creation.liked", `${creation.id}:${member(liker)}`, created);
    }
    for (const [i, [author, body]] of c.comments.entries()) {
      await trx
        .insertInto("creation_comment")
        .values({ creation_id: creation.id, author_id: member(author), body, body_html: renderMarkdown(body), created_at: at(c.daysAgo, 20 * (i + 1)) })
        .execute();
    }
  }

  for (const q of QUESTIONS) {
    const created = at(q.daysAgo);
    const question = await trx
      .insertInto("question")
      .values({
        author_id: member(q.author),
        title: q.title,
        body: q.body,
        body_html: renderMarkdown(q.body),
        excerpt: excerptOf(q.body),
        created_at: created,
        last_activity_at: created,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await award(q.author, "question.asked", question.id, created);
    await trx
      .insertInto("question_virtue")
      .values(q.virtues.map((virtue) => ({ question_id: question.id, virtue })))
      .execute();
    // Past visitors, one view each on the day the question was asked.
    await trx
      .insertInto("question_view")
      .values(Array.from({ length: q.views }, (_, i) => ({ question_id: question.id, viewer_key: `a:demo-visitor-${i}`, day: created.slice(0, 10) })))
      .execute();
    for (const [i, a] of q.answers.entries()) {
      const answeredAt = at(q.daysAgo, 60 * (i + 1));
      const answer = await trx
        .insertInto("answer")
        .values({ question_id: question.id, author_id: member(a.author), body: a.body, body_html: renderMarkdown(a.body), created_at: answeredAt })
        .returning("id")
        .executeTakeFirstOrThrow();
      await award(a.author, "answer.posted", answer.id, answeredAt);
      if (a.accepted) {
        await trx.updateTable("question").set({ accepted_answer_id: answer.id }).where("id", "=", question.id).execute();
        await award(a.author, "answer.accepted", answer.id, answeredAt);
      }
      await trx.updateTable("question").set({ last_activity_at: answeredAt }).where("id", "=", question.id).execute();
    }
  }

  for (const e of EVENTS) {
    const day = eventDay(now, e.when, e.timeZone);
    const startsAt = zonedToUtc(`${day}T${e.time}`, e.timeZone)!;
    const event = await trx
      .insertInto("event")
      .values({
        title: e.title,
        description: e.description,
        description_html: renderMarkdown(e.description),
        path: e.path,
        starts_at: startsAt.toISOString(),
        ends_at: new Date(startsAt.getTime() + e.hours * 60 * 60 * 1000).toISOString(),
        time_zone: e.timeZone,
        online_url: e.onlineUrl,
        place: e.place,
        capacity: e.capacity,
        host_id: member(e.host),
        created_at: at(2),
        updated_at: at(2),
        cancelled_at: null,
        submission_key: null,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    for (const key of e.going) {
      await trx
        .insertInto("event_rsvp")
        .values({ event_id: event.id, member_id: member(key), status: "going", waitlist_position: null, updated_at: at(1) })
        .execute();
    }
  }

  await recount(trx);
  await rebuildReplyHours(trx);
  await rebuildCreationCounts(trx);
  await rebuildSearchIndex(trx);
  await settleStandings(trx, ids);
}

/**
 * Each demo member's XP total and rank on the member row, as the ledger's transactions keep them
 * for everyone else (ADR 0027): the demo writes its ledger rows directly. Virtue levels come from
 * the demo's own completed challenges (the database layer does not import the domain's queries).
 */
async function settleStandings(trx: Transaction<Database>, ids: Map<string, string>) {
  await sql`update member set xp = coalesce((select sum(points) from xp_event where xp_event.member_id = member.id), 0)`.execute(trx);
  const completed = new Map<string, Map<string, number>>();
  for (const c of CHALLENGES) {
    for (const key of new Set(c.completedBy)) {
      const counts = completed.get(key) ?? new Map<string, number>();
      for (const virtue of c.virtues) counts.set(virtue, (counts.get(virtue) ?? 0) + 1);
      completed.set(key, counts);
    }
  }
  const rows = await trx
    .selectFrom("member")
    .select(["id", "xp"])
    .where("id", "in", [...ids.values()])
    .execute();
  const keyOf = new Map([...ids].map(([key, id]) => [id, key]));
  for (const row of rows) {
    const levels: VirtueLevels = {};
    for (const [virtue, count] of completed.get(keyOf.get(row.id)!) ?? []) if (isVirtue(virtue)) levels[virtue] = virtueLevel(count);
    await trx
      .updateTable("member")
      .set({ rank: rankFor(Number(row.xp), levels).id })
      .where("id", "=", row.id)
      .execute();
  }
}

/** Sets every stored count from the rows it counts. */
export async function recount(trx: Kysely<Database>) {
  await trx
    .updateTable("discussion")
    .set((eb) => ({
      reply_count: eb
        .selectFrom("reply")
        .select((r) => r.fn.countAll<number>().as("n"))
        .whereRef("reply.discussion_id", "=", "discussion.id")
        .where("reply.deleted_at", "is", null),
    }))
    .execute();
  await trx
    .updateTable("topic")
    .set((eb) => ({
      discussion_count: eb
        .selectFrom("discussion")
        .select((d) => d.fn.countAll<number>().as("n"))
        .whereRef("discussion.topic_id", "=", "topic.id")
        .where("discussion.deleted_at", "is", null),
      reply_count: eb
        .selectFrom("discussion")
        .select((d) => d.fn.coalesce(d.fn.sum<number>("discussion.reply_count"), d.lit(0)).as("n"))
        .whereRef("discussion.topic_id", "=", "topic.id")
        .where("discussion.deleted_at", "is", null),
      member_count: eb
        .selectFrom("topic_member")
        .select((m) => m.fn.countAll<number>().as("n"))
        .whereRef("topic_member.topic_id", "=", "topic.id"),
      last_activity_at: eb.fn.coalesce(
        eb
          .selectFrom("discussion")
          .select((d) => d.fn.max("discussion.last_activity_at").as("n"))
          .whereRef("discussion.topic_id", "=", "topic.id"),
        eb.ref("topic.created_at"),
      ),
    }))
    .execute();
  await trx
    .updateTable("creation")
    .set((eb) => ({
      like_count: eb
        .selectFrom("creation_like")
        .select((l) => l.fn.countAll<number>().as("n"))
        .whereRef("creation_like.creation_id", "=", "creation.id"),
      comment_count: eb
        .selectFrom("creation_comment")
        .select((c) => c.fn.countAll<number>().as("n"))
        .whereRef("creation_comment.creation_id", "=", "creation.id")
        .where("creation_comment.deleted_at", "is", null),
    }))
    .execute();
  await trx
    .updateTable("question")
    .set((eb) => ({
      view_count: eb
        .selectFrom("question_view")
        .select((v) => v.fn.countAll<number>().as("n"))
        .whereRef("question_view.question_id", "=", "question.id"),
      answer_count: eb
        .selectFrom("answer")
        .select((a) => a.fn.countAll<number>().as("n"))
        .whereRef("answer.question_id", "=", "question.id")
        .where("answer.deleted_at", "is", null),
    }))
    .execute();
}
