import { randomUUID } from "node:crypto";
import { sql, type Kysely, type Transaction } from "kysely";
import { rankFor, type VirtueLevels } from "~/lib/ranks";
import { isVirtue, virtueLevel } from "~/lib/virtues";
import { slugify } from "~/lib/slug";
import { excerptOf } from "~/lib/text";
import sharp from "sharp";
import { databaseMediaStore } from "../media/media-store-database";
import { processImage } from "../media/image-upload";
import { processAudio } from "../media/process-audio";
import { demoSoundWav } from "./demo-sound";
import { utcToZoned, zonedToUtc } from "~/lib/time-zones";
import type { Database } from "./schema";
import { rebuildReplyHours } from "./reply-hours";
import { rebuildCreationCounts } from "./creation-type-counts";
import { renderMarkdown } from "../markdown";

/**
 * Demo content for a first start (PRODUCT.md §6): enough real rows to fill every seed screen: six
 * topics per section, featured discussions, four Forge categories, five creations, three advisors,
 * five questions, eight challenges, four upcoming events (two per path, dated from the moment of insertion), written
 * by demo members of various ranks. Demo members have no password, so
 * nobody can sign in as them. Counts are computed from the rows, never written as constants.
 */

const DAY = 24 * 60 * 60 * 1000;

interface DemoMember {
  key: string;
  name: string;
  bio: string;
  interests: string[];
  /** XP from the member's history before the site's ledger began, to give the demo its ranks. */
  history: number;
}

const MEMBERS: DemoMember[] = [
  { key: "mei", name: "Mei Tanaka", bio: "Zen practitioner for twenty years. I teach breath before technique.", interests: ["meditation", "philosophy"], history: 2400 },
  { key: "marcus", name: "Marcus Reyes", bio: "Former infantry officer, now coaching strength and leadership.", interests: ["fitness"], history: 1700 },
  { key: "amara", name: "Amara Okafor", bio: "Stoic reader, marathon runner, mother of two.", interests: ["philosophy", "fitness"], history: 900 },
  { key: "theo", name: "Theo Lindqvist", bio: "Woodworker and calligrapher. Slow hands, quiet mind.", interests: ["creativity", "meditation"], history: 420 },
  { key: "priya", name: "Priya Nair", bio: "Yoga teacher learning to lift heavy things.", interests: ["meditation", "fitness"], history: 160 },
  { key: "jonas", name: "Jonas Weber", bio: "Software engineer rebuilding discipline one morning at a time.", interests: ["fitness", "creativity"], history: 60 },
  { key: "sofia", name: "Sofia Alvarez", bio: "Musician. I write songs about the long road.", interests: ["creativity"], history: 30 },
  { key: "kenji", name: "Kenji Mori", bio: "Kendo student, tea enthusiast.", interests: ["meditation", "philosophy"], history: 0 },
];

const ADVISORS: { key: string; path: "monk" | "warrior"; specialty: string }[] = [
  { key: "mei", path: "monk", specialty: "Zen meditation and breathwork" },
  { key: "marcus", path: "warrior", specialty: "Strength training and leadership" },
  { key: "amara", path: "monk", specialty: "Stoic philosophy and endurance" },
];

type SectionKey = "monastery" | "battlefield";
const TOPICS: { id: string; section: SectionKey; title: string; description: string }[] = [
  { id: "morning-meditation", section: "monastery", title: "Morning Meditation", description: "Share routines, questions and small victories from the first quiet minutes of the day." },
  { id: "stoic-philosophy", section: "monastery", title: "Stoic Philosophy", description: "Marcus Aurelius, Seneca and Epictetus, read slowly and applied to ordinary days." },
  { id: "breath-and-stillness", section: "monastery", title: "Breath and Stillness", description: "Breathing practices, from box breathing to long exhalations, and what they change." },
  { id: "mindful-living", section: "monastery", title: "Mindful Living", description: "Bringing attention to eating, walking, working and resting." },
  { id: "journaling-practice", section: "monastery", title: "Journaling Practice", description: "Evening reviews, gratitude lists and the questions worth writing down." },
  { id: "silence-retreats", section: "monastery", title: "Silence and Retreats", description: "Planning, surviving and learning from days without speech or screens." },
  { id: "strength-training", section: "battlefield", title: "Strength Training", description: "Programs, form checks and progress logs for lifting heavy, safely." },
  { id: "endurance-running", section: "battlefield", title: "Endurance Running", description: "From the first 5K to ultramarathons: pacing, recovery and the mind on mile twenty." },
  { id: "leadership-under-pressure", section: "battlefield", title: "Leadership Under Pressure", description: "Leading teams and families when it is hard, and owning the outcome." },
  { id: "martial-arts", section: "battlefield", title: "Martial Arts", description: "Dojo life across styles: kendo, judo, boxing, jiu-jitsu and more." },
  { id: "cold-exposure", section: "battlefield", title: "Cold Exposure", description: "Cold showers, winter swims and what discomfort teaches." },
  { id: "discipline-habits", section: "battlefield", title: "Discipline and Habits", description: "Building habits that hold when motivation does not." },
];

const DISCUSSIONS: { topic: string; author: string; title: string; body: string; daysAgo: number; replies: [string, string][] }[] = [
  {
    topic: "morning-meditation", author: "priya", daysAgo: 2,
    title: "How long did it take before sitting felt natural?",
    body: "I have been sitting for ten minutes every morning for three weeks. Some days my mind races the whole time. **Does it get easier**, or does the practice change what easy means?",
    replies: [["mei", "It never gets easy; you get kinder to the racing mind. Count breaths to ten and start again, without scolding yourself."], ["kenji", "Week five was my turning point. Keep the time fixed, not the feeling."], ["jonas", "Same experience here. Shorter sits on bad days helped me keep the streak."], ["theo", "I sit right after making tea. The ritual does half the work."]],
  },
  {
    topic: "stoic-philosophy", author: "amara", daysAgo: 1,
    title: "The dichotomy of control on a bad day at work",
    body: "Today my project was cancelled after months of work. Epictetus says to separate what is up to us from what is not. Here is how I worked through it, step by step, and where I still struggle.",
    replies: [["marcus", "Owning the response is the whole game. Write down what you will do tomorrow morning."], ["mei", "Grief over lost work is allowed. Stoicism is not pretending you feel nothing."], ["priya", "Thank you for sharing this. Saving it for the next time it happens to me."]],
  },
  {
    topic: "breath-and-stillness", author: "theo", daysAgo: 3,
    title: "Box breathing before difficult conversations",
    body: "Four in, four hold, four out, four hold. I tried it before a hard talk with my brother and it kept my voice steady.",
    replies: [["amara", "Runners use a version of this on hills. Works the same way."], ["sofia", "I do this before performing. It calms the shaking hands."]],
  },
  {
    topic: "journaling-practice", author: "jonas", daysAgo: 5,
    title: "Three questions for the evening review",
    body: "What did I do well? Where did I fall short? What will I do differently tomorrow? Borrowed from Seneca, it takes five minutes.",
    replies: [["amara", "Seneca's nightly review is one of my favourite practices."]],
  },
  {
    topic: "strength-training", author: "marcus", daysAgo: 1,
    title: "Form over weight: a deadlift checklist",
    body: "Before every pull: feet under the bar, shins to the bar, chest up, brace, push the floor away. Post your checklist and your questions.",
    replies: [["jonas", "Bracing was the missing piece for me. My back thanks you."], ["priya", "Filming from the side showed me my hips rising first. Fixed now."], ["kenji", "Does this apply to sumo stance too?"], ["marcus", "Mostly, yes: the brace and the push are the same; the hips start closer to the bar."], ["amara", "Great list. Printing it for the gym."]],
  },
  {
    topic: "endurance-running", author: "amara", daysAgo: 4,
    title: "What to think about on mile twenty",
    body: "The body has more left than the mind believes. I break the last miles into lamp posts and count breaths between them.",
    replies: [["marcus", "One more lamp post is a mantra for life, not just marathons."], ["mei", "This is walking meditation at speed."]],
  },
  {
    topic: "leadership-under-pressure", author: "marcus", daysAgo: 6,
    title: "Extreme ownership at home",
    body: "Leadership lessons from the field apply to family life too. When the house is chaos, start by asking what I could have done differently.",
    replies: [["sofia", "Hard to read and very true."], ["theo", "I tried this with my apprentice this week. It changed the tone of the workshop."]],
  },
  {
    topic: "cold-exposure", author: "kenji", daysAgo: 9,
    title: "Thirty days of cold showers: notes",
    body: "Day one was a shock; day thirty was a choice. The discipline carried over into getting up on time.",
    replies: [["jonas", "Starting tomorrow. Wish me luck."]],
  },
];

const CREATIONS: { author: string; type: "writing" | "art" | "music" | "projects"; title: string; description: string; body: string; daysAgo: number; likes: string[]; comments: [string, string][]; link?: string }[] = [
  { author: "theo", type: "art", title: "Enso Series: Twelve Circles", description: "Twelve brush circles, one drawn each morning for twelve days.", body: "Each circle was drawn in a single breath. The imperfect ones taught me the most.", daysAgo: 2, likes: ["mei", "priya", "sofia", "kenji"], comments: [["mei", "The seventh circle is my favourite: unfinished and complete."]] },
  { author: "sofia", type: "music", title: "The Long Road (acoustic)", description: "A song about training through winter.", body: "Written after my first winter of morning runs. This is the melody's sketch: five plucked notes that rise and come home. The full take with guitar and voice comes next.", daysAgo: 3, likes: ["amara", "theo"], comments: [["amara", "This is going on my running playlist."], ["jonas", "Beautiful melody."]] },
  { author: "amara", type: "writing", title: "Letters to a Young Runner", description: "Short letters on patience, pain and progress.", body: "Dear runner,\n\nThe first mile lies. So does the last. Run the one you are in.\n\n*More letters to follow.*", daysAgo: 5, likes: ["marcus", "mei", "priya", "jonas", "kenji"], comments: [["priya", "The first mile lies. I needed that."]] },
  { author: "jonas", type: "projects", title: "Habit Tracker on Paper", description: "A printable one-page tracker for monk and warrior habits.", body: "A simple grid: one row per habit, one column per day. Print it, pin it, fill it.", daysAgo: 7, likes: ["kenji"], comments: [], link: "https://example.org/habit-tracker" },
  { author: "mei", type: "writing", title: "Ten Breaths", description: "A short meditation script to read aloud.", body: "Sit. Let the shoulders fall. Breathe in and count one...", daysAgo: 10, likes: ["priya", "theo", "kenji"], comments: [["kenji", "I read this every morning now."]] },
];

const QUESTIONS: { author: string; title: string; body: string; virtues: string[]; daysAgo: number; views: number; answers: { author: string; body: string; accepted?: boolean }[] }[] = [
  {
    author: "jonas", daysAgo: 1, views: 48, virtues: ["discipline", "resilience"],
    title: "How do I keep a morning routine when my schedule changes every week?",
    body: "I work rotating shifts. Every routine I build falls apart within two weeks. How do monks and soldiers keep discipline when the clock keeps moving?",
    answers: [
      { author: "marcus", accepted: true, body: "Anchor the routine to an event, not a time: the first thing after waking, whenever that is. Keep it short enough to survive your worst day." },
      { author: "mei", body: "Monasteries move too. Keep one small practice that travels with you: three breaths before your feet touch the floor." },
    ],
  },
  {
    author: "priya", daysAgo: 2, views: 35, virtues: ["courage", "compassion"],
    title: "How do I face fear of failure without becoming harsh with myself?",
    body: "I push myself hard in training and I am afraid of failing. But when I fail, I am cruel to myself. How do I keep courage and kindness together?",
    answers: [{ author: "amara", body: "Treat yourself as you would treat a friend you are coaching. Honest about the miss, warm about the person." }],
  },
  {
    author: "kenji", daysAgo: 3, views: 22, virtues: ["wisdom"],
    title: "Which Stoic text should a beginner read first?",
    body: "Meditations, Letters from a Stoic or the Enchiridion? I want something I can apply, not only admire.",
    answers: [
      { author: "amara", accepted: true, body: "Start with the Enchiridion: it is short and practical. Then Seneca's letters, one a day." },
      { author: "theo", body: "Meditations worked for me because it reads like a private journal." },
    ],
  },
  {
    author: "sofia", daysAgo: 4, views: 17, virtues: ["honor", "discipline"],
    title: "How do I keep promises to myself when no one is watching?",
    body: "I keep my word to others but break it to myself all the time. What helps?",
    answers: [],
  },
  {
    author: "theo", daysAgo: 6, views: 29, virtues: ["resilience", "courage"],
    title: "Returning to training after an injury: how do I start again?",
    body: "Six months off with a knee injury. I feel weak and scared to load it. Where do I begin?",
    answers: [{ author: "marcus", body: "With your physiotherapist's plan, then tempo work at loads that feel almost too easy. Confidence returns before strength does." }],
  },
];

/** Four upcoming events, two per path, dated from the moment the demo is inserted. */
const EVENTS: {
  host: string;
  path: "monk" | "warrior";
  title: string;
  description: string;
  /** Days after insertion, or, for an event named for a weekday, that weekday (0 Sunday .. 6 Saturday). */
  when: { daysAhead: number } | { weekday: number };
  time: string;
  hours: number;
  timeZone: string;
  place: string | null;
  onlineUrl: string | null;
  capacity: number;
  going: string[];
}[] = [
  {
    host: "mei",
    path: "monk",
    title: "Online sit: twenty minutes of silence",
    description: "A short guided settling-in, then twenty minutes of silent sitting and a few minutes to share. Cameras optional; beginners welcome.",
    when: { daysAhead: 3 },
    time: "07:00",
    hours: 1,
    timeZone: "Asia/Tokyo",
    place: null,
    onlineUrl: "https://meet.innerpeace.example/morning-sit",
    capacity: 40,
    going: ["theo", "priya", "kenji"],
  },
  {
    host: "marcus",
    path: "warrior",
    title: "Saturday trail run at a talking pace",
    description: "Eight kilometres on easy trails, nobody left behind. Bring water and shoes with grip; we finish with five quiet minutes by the lake.",
    // The title says Saturday, so it is the next Saturday where it is run, whatever day the demo is seeded.
    when: { weekday: 6 },
    time: "08:30",
    hours: 2,
    timeZone: "America/Denver",
    place: "Chautauqua Park trailhead, Boulder",
    onlineUrl: null,
    capacity: 12,
    going: ["jonas", "amara"],
  },
  {
    host: "amara",
    path: "monk",
    title: "Workshop: the Stoic evening review",
    description: "Seneca's three questions for the end of the day, tried together and turned into a five-minute journaling habit. Bring a notebook.",
    when: { daysAhead: 9 },
    time: "19:00",
    hours: 1.5,
    timeZone: "Europe/London",
    place: null,
    onlineUrl: "https://meet.innerpeace.example/evening-review",
    capacity: 25,
    going: ["sofia"],
  },
  {
    host: "marcus",
    path: "warrior",
    title: "Strength basics: hinge, squat and carry",
    description: "A coached session on three lifts everyone can use for life. Light loads, good form, plenty of questions. All levels.",
    when: { daysAhead: 12 },
    time: "10:00",
    hours: 2,
    timeZone: "America/Denver",
    place: "Iron Oak Gym, 1200 Pearl Street, Boulder",
    onlineUrl: null,
    capacity: 8,
    going: ["priya", "jonas", "kenji"],
  },
];

/**
 * Eight challenges, four per path, published by the advisors, with members on them: running
 * attempts with their recent check-ins (`days`: how many days ago each was) and a few completed
 * ones. Completions here add no XP (the members' history already holds it), only virtues.
 */
const CHALLENGES: {
  title: string;
  description: string;
  path: "monk" | "warrior";
  virtues: string[];
  length: number;
  required: number;
  by: string;
  running: { member: string; startedDaysAgo: number; days: number[] }[];
  completedBy: string[];
}[] = [
  {
    title: "Thirty Mornings of Silence",
    description: "Sit for ten minutes each morning before you touch your phone. Count breaths; when you lose count, begin again.",
    path: "monk",
    virtues: ["discipline", "wisdom"],
    length: 30,
    required: 25,
    by: "mei",
    running: [
      { member: "kenji", startedDaysAgo: 6, days: [6, 5, 4, 2, 1] },
      { member: "priya", startedDaysAgo: 3, days: [3, 2, 1] },
    ],
    completedBy: ["theo"],
  },
  {
    title: "A Week of Gratitude Letters",
    description: "Write a short letter of thanks each day to someone who shaped you. Send it or keep it; the writing is the practice.",
    path: "monk",
    virtues: ["compassion"],
    length: 7,
    required: 6,
    by: "amara",
    running: [{ member: "sofia", startedDaysAgo: 2, days: [2, 1] }],
    completedBy: ["theo", "priya"],
  },
  {
    title: "The Stoic Evening Review",
    description: "Each night, three questions in a notebook: what did I do well, where did I fall short, what will I do tomorrow?",
    path: "monk",
    virtues: ["wisdom"],
    length: 14,
    required: 12,
    by: "amara",
    running: [{ member: "jonas", startedDaysAgo: 4, days: [4, 3, 1] }],
    completedBy: ["amara"],
  },
  {
    title: "Digital Sunset",
    description: "Screens off an hour before bed for three weeks. Read, stretch, talk, or sit with the quiet.",
    path: "monk",
    virtues: ["discipline"],
    length: 21,
    required: 18,
    by: "mei",
    running: [{ member: "theo", startedDaysAgo: 5, days: [5, 4, 3, 2, 1] }],
    completedBy: [],
  },
  {
    title: "One Hundred Push-ups a Day",
    description: "One hundred push-ups every day, in as many sets as you need. Strict form; rest when the body asks.",
    path: "warrior",
    virtues: ["resilience", "discipline"],
    length: 30,
    required: 25,
    by: "marcus",
    running: [
      { member: "jonas", startedDaysAgo: 8, days: [8, 7, 6, 5, 3, 2, 1] },
      { member: "priya", startedDaysAgo: 2, days: [2, 1] },
    ],
    completedBy: ["marcus"],
  },
  {
    title: "Cold Water at Dawn",
    description: "End each morning shower with sixty seconds of cold water. Breathe slowly through the shock.",
    path: "warrior",
    virtues: ["courage", "resilience"],
    length: 14,
    required: 12,
    by: "marcus",
    running: [{ member: "kenji", startedDaysAgo: 1, days: [1] }],
    completedBy: ["amara"],
  },
  {
    title: "Keep Your Word for Two Weeks",
    description: "Make one small promise each morning, to yourself or someone else, and keep it before night falls.",
    path: "warrior",
    virtues: ["honor"],
    length: 14,
    required: 14,
    by: "marcus",
    running: [{ member: "sofia", startedDaysAgo: 3, days: [3, 2, 1] }],
    completedBy: [],
  },
  {
    title: "Face One Fear a Day",
    description: "Each day, do one thing you have been avoiding: the call, the question, the first step. Note what happened.",
    path: "warrior",
    virtues: ["courage"],
    length: 7,
    required: 6,
    by: "marcus",
    running: [],
    completedBy: ["jonas", "marcus"],
  },
];

/**
 * The demo's Visual Art gets a real image, drawn here (an ink circle on paper, rendered by sharp
 * from SVG) and stored the way an upload is, so the Forge shows images out of the box.
 */
async function demoImage(trx: Transaction<Database>, creationId: number, ownerId: string) {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="800"><defs><linearGradient id="p" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#f5efe3"/><stop offset="1" stop-color="#e4d8c2"/></linearGradient></defs><rect width="1200" height="800" fill="url(#p)"/><circle cx="600" cy="400" r="250" fill="none" stroke="#1c1917" stroke-width="46" stroke-linecap="round" stroke-dasharray="1460 110" transform="rotate(-70 600 400)"/></svg>`;
  const image = await processImage(await sharp(Buffer.from(svg)).png().toBuffer());
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
      await trx
        .insertInto("xp_event")
        .values({ member_id: id, kind: "demo.history", subject_id: "demo", points: m.history, created_at: joined })
        .execute();
    }
  }
  const member = (key: string) => ids.get(key)!;
  const award = async (key: string, kind: string, subject: string | number, points: number, when: string) => {
    await trx
      .insertInto("xp_event")
      .values({ member_id: member(key), kind, subject_id: String(subject), points, created_at: when })
      .execute();
  };

  for (const a of ADVISORS) {
    await trx.insertInto("advisor").values({ member_id: member(a.key), path: a.path, specialty: a.specialty, granted_at: joined }).execute();
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
    await trx.insertInto("challenge_virtue").values(c.virtues.map((virtue) => ({ challenge_id: challenge.id, virtue }))).execute();
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
      .values({ id: t.id, section: t.section, title: t.title, description: t.description, created_by: null, created_at: at(50, index), last_activity_at: at(50, index) })
      .execute();
  }
  // Every demo member follows the topics of the sections that match their interests.
  for (const m of MEMBERS) {
    for (const t of TOPICS) {
      const monk = m.interests.includes("meditation") || m.interests.includes("philosophy");
      const warrior = m.interests.includes("fitness");
      if ((t.section === "monastery" && monk) || (t.section === "battlefield" && warrior)) {
        await trx.insertInto("topic_member").values({ topic_id: t.id, member_id: member(m.key), joined_at: joined }).execute();
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
    await award(d.author, "discussion.started", discussion.id, 5, created);
    let last = created;
    for (const [i, [author, body]] of d.replies.entries()) {
      last = at(d.daysAgo, 30 * (i + 1));
      const reply = await trx
        .insertInto("reply")
        .values({ discussion_id: discussion.id, author_id: member(author), body, body_html: renderMarkdown(body), created_at: last })
        .returning("id")
        .executeTakeFirstOrThrow();
      await award(author, "reply.posted", reply.id, 2, last);
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
    await award(c.author, "creation.shared", creation.id, 10, created);
    if (c.type === "art") await demoImage(trx, creation.id, member(c.author));
    if (c.type === "music") await demoAudio(trx, creation.id, member(c.author));
    for (const liker of c.likes) {
      await trx.insertInto("creation_like").values({ creation_id: creation.id, member_id: member(liker), created_at: created }).execute();
      await award(c.author, "creation.liked", `${creation.id}:${member(liker)}`, 1, created);
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
      .values({ author_id: member(q.author), title: q.title, body: q.body, body_html: renderMarkdown(q.body), excerpt: excerptOf(q.body), created_at: created, last_activity_at: created })
      .returning("id")
      .executeTakeFirstOrThrow();
    await award(q.author, "question.asked", question.id, 2, created);
    await trx.insertInto("question_virtue").values(q.virtues.map((virtue) => ({ question_id: question.id, virtue }))).execute();
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
      await award(a.author, "answer.posted", answer.id, 5, answeredAt);
      if (a.accepted) {
        await trx.updateTable("question").set({ accepted_answer_id: answer.id }).where("id", "=", question.id).execute();
        await award(a.author, "answer.accepted", answer.id, 15, answeredAt);
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
      await trx.insertInto("event_rsvp").values({ event_id: event.id, member_id: member(key), status: "going", waitlist_position: null, updated_at: at(1) }).execute();
    }
  }

  await recount(trx);
  await rebuildReplyHours(trx);
  await rebuildCreationCounts(trx);
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
  const rows = await trx.selectFrom("member").select(["id", "xp"]).where("id", "in", [...ids.values()]).execute();
  const keyOf = new Map([...ids].map(([key, id]) => [id, key]));
  for (const row of rows) {
    const levels: VirtueLevels = {};
    for (const [virtue, count] of completed.get(keyOf.get(row.id)!) ?? []) if (isVirtue(virtue)) levels[virtue] = virtueLevel(count);
    await trx.updateTable("member").set({ rank: rankFor(Number(row.xp), levels).id }).where("id", "=", row.id).execute();
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
