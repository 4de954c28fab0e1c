/**
 * What the demo says (PRODUCT.md §6): its members, advisors, topics, discussions, creations,
 * questions, events and challenges, as plain data. demo-content.ts writes it; nothing here knows
 * a table. Members are named by `key` (their handle); counts are never written here, they are
 * computed from the rows once inserted.
 */
export interface DemoMember {
  key: string;
  name: string;
  bio: string;
  interests: string[];
  /** XP from the member's history before the site's ledger began, to give the demo its ranks. */
  history: number;
}

export const MEMBERS: DemoMember[] = [
  {
    key: "mei",
    name: "Mei Tanaka",
    bio: "Zen practitioner for twenty years. I teach breath before technique.",
    interests: ["meditation", "philosophy"],
    history: 2400,
  },
  { key: "marcus", name: "Marcus Reyes", bio: "Former infantry officer, now coaching strength and leadership.", interests: ["fitness"], history: 1700 },
  { key: "amara", name: "Amara Okafor", bio: "Stoic reader, marathon runner, mother of two.", interests: ["philosophy", "fitness"], history: 900 },
  { key: "theo", name: "Theo Lindqvist", bio: "Woodworker and calligrapher. Slow hands, quiet mind.", interests: ["creativity", "meditation"], history: 420 },
  { key: "priya", name: "Priya Nair", bio: "Yoga teacher learning to lift heavy things.", interests: ["meditation", "fitness"], history: 160 },
  {
    key: "jonas",
    name: "Jonas Weber",
    bio: "Software engineer rebuilding discipline one morning at a time.",
    interests: ["fitness", "creativity"],
    history: 60,
  },
  { key: "sofia", name: "Sofia Alvarez", bio: "Musician. I write songs about the long road.", interests: ["creativity"], history: 30 },
  { key: "kenji", name: "Kenji Mori", bio: "Kendo student, tea enthusiast.", interests: ["meditation", "philosophy"], history: 0 },
];

export const ADVISORS: { key: string; path: "monk" | "warrior"; specialty: string }[] = [
  { key: "mei", path: "monk", specialty: "Zen meditation and breathwork" },
  { key: "marcus", path: "warrior", specialty: "Strength training and leadership" },
  { key: "amara", path: "monk", specialty: "Stoic philosophy and endurance" },
];

export type SectionKey = "monastery" | "battlefield";
export const TOPICS: { id: string; section: SectionKey; title: string; description: string }[] = [
  {
    id: "morning-meditation",
    section: "monastery",
    title: "Morning Meditation",
    description: "Share routines, questions and small victories from the first quiet minutes of the day.",
  },
  {
    id: "stoic-philosophy",
    section: "monastery",
    title: "Stoic Philosophy",
    description: "Marcus Aurelius, Seneca and Epictetus, read slowly and applied to ordinary days.",
  },
  {
    id: "breath-and-stillness",
    section: "monastery",
    title: "Breath and Stillness",
    description: "Breathing practices, from box breathing to long exhalations, and what they change.",
  },
  { id: "mindful-living", section: "monastery", title: "Mindful Living", description: "Bringing attention to eating, walking, working and resting." },
  {
    id: "journaling-practice",
    section: "monastery",
    title: "Journaling Practice",
    description: "Evening reviews, gratitude lists and the questions worth writing down.",
  },
  {
    id: "silence-retreats",
    section: "monastery",
    title: "Silence and Retreats",
    description: "Planning, surviving and learning from days without speech or screens.",
  },
  {
    id: "strength-training",
    section: "battlefield",
    title: "Strength Training",
    description: "Programs, form checks and progress logs for lifting heavy, safely.",
  },
  {
    id: "endurance-running",
    section: "battlefield",
    title: "Endurance Running",
    description: "From the first 5K to ultramarathons: pacing, recovery and the mind on mile twenty.",
  },
  {
    id: "leadership-under-pressure",
    section: "battlefield",
    title: "Leadership Under Pressure",
    description: "Leading teams and families when it is hard, and owning the outcome.",
  },
  { id: "martial-arts", section: "battlefield", title: "Martial Arts", description: "Dojo life across styles: kendo, judo, boxing, jiu-jitsu and more." },
  { id: "cold-exposure", section: "battlefield", title: "Cold Exposure", description: "Cold showers, winter swims and what discomfort teaches." },
  { id: "discipline-habits", section: "battlefield", title: "Discipline and Habits", description: "Building habits that hold when motivation does not." },
];

export const DISCUSSIONS: { topic: string; author: string; title: string; body: string; daysAgo: number; replies: [string, string][] }[] = [
  {
    topic: "morning-meditation",
    author: "priya",
    daysAgo: 2,
    title: "How long did it take before sitting felt natural?",
    body: "I have been sitting for ten minutes every morning for three weeks. Some days my mind races the whole time. **Does it get easier**, or does the practice change what easy means?",
    replies: [
      ["mei", "It never gets easy; you get kinder to the racing mind. Count breaths to ten and start again, without scolding yourself."],
      ["kenji", "Week five was my turning point. Keep the time fixed, not the feeling."],
      ["jonas", "Same experience here. Shorter sits on bad days helped me keep the streak."],
      ["theo", "I sit right after making tea. The ritual does half the work."],
    ],
  },
  {
    topic: "stoic-philosophy",
    author: "amara",
    daysAgo: 1,
    title: "The dichotomy of control on a bad day at work",
    body: "Today my project was cancelled after months of work. Epictetus says to separate what is up to us from what is not. Here is how I worked through it, step by step, and where I still struggle.",
    replies: [
      ["marcus", "Owning the response is the whole game. Write down what you will do tomorrow morning."],
      ["mei", "Grief over lost work is allowed. Stoicism is not pretending you feel nothing."],
      ["priya", "Thank you for sharing this. Saving it for the next time it happens to me."],
    ],
  },
  {
    topic: "breath-and-stillness",
    author: "theo",
    daysAgo: 3,
    title: "Box breathing before difficult conversations",
    body: "Four in, four hold, four out, four hold. I tried it before a hard talk with my brother and it kept my voice steady.",
    replies: [
      ["amara", "Runners use a version of this on hills. Works the same way."],
      ["sofia", "I do this before performing. It calms the shaking hands."],
    ],
  },
  {
    topic: "journaling-practice",
    author: "jonas",
    daysAgo: 5,
    title: "Three questions for the evening review",
    body: "What did I do well? Where did I fall short? What will I do differently tomorrow? Borrowed from Seneca, it takes five minutes.",
    replies: [["amara", "Seneca's nightly review is one of my favourite practices."]],
  },
  {
    topic: "strength-training",
    author: "marcus",
    daysAgo: 1,
    title: "Form over weight: a deadlift checklist",
    body: "Before every pull: feet under the bar, shins to the bar, chest up, brace, push the floor away. Post your checklist and your questions.",
    replies: [
      ["jonas", "Bracing was the missing piece for me. My back thanks you."],
      ["priya", "Filming from the side showed me my hips rising first. Fixed now."],
      ["kenji", "Does this apply to sumo stance too?"],
      ["marcus", "Mostly, yes: the brace and the push are the same; the hips start closer to the bar."],
      ["amara", "Great list. Printing it for the gym."],
    ],
  },
  {
    topic: "endurance-running",
    author: "amara",
    daysAgo: 4,
    title: "What to think about on mile twenty",
    body: "The body has more left than the mind believes. I break the last miles into lamp posts and count breaths between them.",
    replies: [
      ["marcus", "One more lamp post is a mantra for life, not just marathons."],
      ["mei", "This is walking meditation at speed."],
    ],
  },
  {
    topic: "leadership-under-pressure",
    author: "marcus",
    daysAgo: 6,
    title: "Extreme ownership at home",
    body: "Leadership lessons from the field apply to family life too. When the house is chaos, start by asking what I could have done differently.",
    replies: [
      ["sofia", "Hard to read and very true."],
      ["theo", "I tried this with my apprentice this week. It changed the tone of the workshop."],
    ],
  },
  {
    topic: "cold-exposure",
    author: "kenji",
    daysAgo: 9,
    title: "Thirty days of cold showers: notes",
    body: "Day one was a shock; day thirty was a choice. The discipline carried over into getting up on time.",
    replies: [["jonas", "Starting tomorrow. Wish me luck."]],
  },
];

export const CREATIONS: {
  author: string;
  type: "writing" | "art" | "music" | "projects";
  title: string;
  description: string;
  body: string;
  daysAgo: number;
  likes: string[];
  comments: [string, string][];
  link?: string;
}[] = [
  {
    author: "theo",
    type: "art",
    title: "Enso Series: Twelve Circles",
    description: "Twelve brush circles, one drawn each morning for twelve days.",
    body: "Each circle was drawn in a single breath. The imperfect ones taught me the most.",
    daysAgo: 2,
    likes: ["mei", "priya", "sofia", "kenji"],
    comments: [["mei", "The seventh circle is my favourite: unfinished and complete."]],
  },
  {
    author: "sofia",
    type: "music",
    title: "The Long Road (acoustic)",
    description: "A song about training through winter.",
    body: "Written after my first winter of morning runs. This is the melody's sketch: five plucked notes that rise and come home. The full take with guitar and voice comes next.",
    daysAgo: 3,
    likes: ["amara", "theo"],
    comments: [
      ["amara", "This is going on my running playlist."],
      ["jonas", "Beautiful melody."],
    ],
  },
  {
    author: "amara",
    type: "writing",
    title: "Letters to a Young Runner",
    description: "Short letters on patience, pain and progress.",
    body: "Dear runner,\n\nThe first mile lies. So does the last. Run the one you are in.\n\n*More letters to follow.*",
    daysAgo: 5,
    likes: ["marcus", "mei", "priya", "jonas", "kenji"],
    comments: [["priya", "The first mile lies. I needed that."]],
  },
  {
    author: "jonas",
    type: "projects",
    title: "Habit Tracker on Paper",
    description: "A printable one-page tracker for monk and warrior habits.",
    body: "A simple grid: one row per habit, one column per day. Print it, pin it, fill it.",
    daysAgo: 7,
    likes: ["kenji"],
    comments: [],
    link: "https://example.org/habit-tracker",
  },
  {
    author: "mei",
    type: "writing",
    title: "Ten Breaths",
    description: "A short meditation script to read aloud.",
    body: "Sit. Let the shoulders fall. Breathe in and count one...",
    daysAgo: 10,
    likes: ["priya", "theo", "kenji"],
    comments: [["kenji", "I read this every morning now."]],
  },
];

export const QUESTIONS: {
  author: string;
  title: string;
  body: string;
  virtues: string[];
  daysAgo: number;
  views: number;
  answers: { author: string; body: string; accepted?: boolean }[];
}[] = [
  {
    author: "jonas",
    daysAgo: 1,
    views: 48,
    virtues: ["discipline", "resilience"],
    title: "How do I keep a morning routine when my schedule changes every week?",
    body: "I work rotating shifts. Every routine I build falls apart within two weeks. How do monks and soldiers keep discipline when the clock keeps moving?",
    answers: [
      {
        author: "marcus",
        accepted: true,
        body: "Anchor the routine to an event, not a time: the first thing after waking, whenever that is. Keep it short enough to survive your worst day.",
      },
      { author: "mei", body: "Monasteries move too. Keep one small practice that travels with you: three breaths before your feet touch the floor." },
    ],
  },
  {
    author: "priya",
    daysAgo: 2,
    views: 35,
    virtues: ["courage", "compassion"],
    title: "How do I face fear of failure without becoming harsh with myself?",
    body: "I push myself hard in training and I am afraid of failing. But when I fail, I am cruel to myself. How do I keep courage and kindness together?",
    answers: [{ author: "amara", body: "Treat yourself as you would treat a friend you are coaching. Honest about the miss, warm about the person." }],
  },
  {
    author: "kenji",
    daysAgo: 3,
    views: 22,
    virtues: ["wisdom"],
    title: "Which Stoic text should a beginner read first?",
    body: "Meditations, Letters from a Stoic or the Enchiridion? I want something I can apply, not only admire.",
    answers: [
      { author: "amara", accepted: true, body: "Start with the Enchiridion: it is short and practical. Then Seneca's letters, one a day." },
      { author: "theo", body: "Meditations worked for me because it reads like a private journal." },
    ],
  },
  {
    author: "sofia",
    daysAgo: 4,
    views: 17,
    virtues: ["honor", "discipline"],
    title: "How do I keep promises to myself when no one is watching?",
    body: "I keep my word to others but break it to myself all the time. What helps?",
    answers: [],
  },
  {
    author: "theo",
    daysAgo: 6,
    views: 29,
    virtues: ["resilience", "courage"],
    title: "Returning to training after an injury: how do I start again?",
    body: "Six months off with a knee injury. I feel weak and scared to load it. Where do I begin?",
    answers: [
      {
        author: "marcus",
        body: "With your physiotherapist's plan, then tempo work at loads that feel almost too easy. Confidence returns before strength does.",
      },
    ],
  },
];

/** Four upcoming events, two per path, dated from the moment the demo is inserted. */
export const EVENTS: {
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
export const CHALLENGES: {
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

/** The demo's Visual Art: an ink circle on paper, drawn as SVG and stored as an upload would be. */
export const DEMO_ART_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="800"><defs><linearGradient id="p" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#f5efe3"/><stop offset="1" stop-color="#e4d8c2"/></linearGradient></defs><rect width="1200" height="800" fill="url(#p)"/><circle cx="600" cy="400" r="250" fill="none" stroke="#1c1917" stroke-width="46" stroke-linecap="round" stroke-dasharray="1460 110" transform="rotate(-70 600 400)"/></svg>`;
