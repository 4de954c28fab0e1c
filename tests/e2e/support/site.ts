/**
 * What the suite expects to find: the seed's fixed texts, and the demo content the server puts in
 * a fresh database (app/.server/db/demo-content.ts), whose counts are computed from its rows.
 */

export const NAV_LINKS = [
  { name: "Home", href: "/" },
  { name: "Monastery", href: "/monastery" },
  { name: "Battlefield", href: "/battlefield" },
  { name: "Forge", href: "/forge" },
  { name: "Council", href: "/council" },
] as const;

export const FOOTER_LINKS = [
  { name: "Our Manifesto", href: "/manifesto" },
  { name: "Rank System", href: "/ranks" },
  { name: "Events", href: "/events" },
  { name: "FAQ", href: "/faq" },
  { name: "Monastery", href: "/monastery" },
  { name: "Battlefield", href: "/battlefield" },
  { name: "Forge", href: "/forge" },
  { name: "Council", href: "/council" },
  { name: "Privacy", href: "/privacy" },
  { name: "Terms", href: "/terms" },
  { name: "Code of Conduct", href: "/code-of-conduct" },
] as const;

/** Seed §3, in order. */
export const RANKS = [
  { label: "Initiate", description: "Beginning the journey" },
  { label: "Acolyte", description: "Learning the fundamentals" },
  { label: "Disciple", description: "Practicing the monk's way" },
  { label: "Sage", description: "Mastering inner peace" },
  { label: "Samurai", description: "Training in warrior skills" },
  { label: "Warlord", description: "Leading with strength" },
  { label: "Master", description: "Balancing both paths" },
] as const;

/** Seed §3. */
export const VIRTUES = [
  { label: "Discipline", description: "Consistency in practice and habits" },
  { label: "Courage", description: "Facing fears and challenges" },
  { label: "Wisdom", description: "Applied knowledge and insight" },
  { label: "Honor", description: "Integrity in words and actions" },
  { label: "Resilience", description: "Endurance through hardship" },
  { label: "Compassion", description: "Understanding toward self and others" },
] as const;

export interface DemoTopic {
  id: string;
  title: string;
  posts: number;
  members: number;
}

/** posts = discussions + replies; members = demo members whose interests match the section. */
export const SECTIONS = {
  monastery: {
    heading: "The Monastery",
    topics: [
      { id: "morning-meditation", title: "Morning Meditation", posts: 5, members: 5 },
      { id: "stoic-philosophy", title: "Stoic Philosophy", posts: 4, members: 5 },
      { id: "breath-and-stillness", title: "Breath and Stillness", posts: 3, members: 5 },
      { id: "mindful-living", title: "Mindful Living", posts: 0, members: 5 },
      { id: "journaling-practice", title: "Journaling Practice", posts: 2, members: 5 },
      { id: "silence-retreats", title: "Silence and Retreats", posts: 0, members: 5 },
    ] as DemoTopic[],
  },
  battlefield: {
    heading: "The Battlefield",
    topics: [
      { id: "strength-training", title: "Strength Training", posts: 6, members: 4 },
      { id: "endurance-running", title: "Endurance Running", posts: 3, members: 4 },
      { id: "leadership-under-pressure", title: "Leadership Under Pressure", posts: 3, members: 4 },
      { id: "martial-arts", title: "Martial Arts", posts: 0, members: 4 },
      { id: "cold-exposure", title: "Cold Exposure", posts: 2, members: 4 },
      { id: "discipline-habits", title: "Discipline and Habits", posts: 0, members: 4 },
    ] as DemoTopic[],
  },
} as const;

export const FORGE_CATEGORIES = [
  { type: "writing", label: "Writing", count: 2 },
  { type: "art", label: "Visual Art", count: 1 },
  { type: "music", label: "Music", count: 1 },
  { type: "projects", label: "Projects", count: 1 },
] as const;

export const CREATIONS = [
  "Enso Series: Twelve Circles",
  "The Long Road (acoustic)",
  "Letters to a Young Runner",
  "Habit Tracker on Paper",
  "Ten Breaths",
] as const;

export const ADVISORS = ["Mei Tanaka", "Marcus Reyes", "Amara Okafor"] as const;

export const QUESTIONS = [
  "How do I keep a morning routine when my schedule changes every week?",
  "How do I face fear of failure without becoming harsh with myself?",
  "Which Stoic text should a beginner read first?",
  "How do I keep promises to myself when no one is watching?",
  "Returning to training after an injury: how do I start again?",
] as const;

/** Footer pages that PRODUCT.md makes real; each has one h1. */
export const CONTENT_PAGES = [
  { path: "/manifesto", h1: "Our Manifesto" },
  { path: "/ranks", h1: "Rank System" },
  { path: "/events", h1: "Events" },
  { path: "/faq", h1: "Frequently Asked Questions" },
  { path: "/terms", h1: "Terms of Service" },
  { path: "/privacy", h1: "Privacy Policy" },
  { path: "/code-of-conduct", h1: "Code of Conduct" },
] as const;

/** Escapes a string for use inside a RegExp. */
export function escapeRegExp(text: string) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
