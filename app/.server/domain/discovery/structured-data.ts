import { profilePath } from "~/lib/members";

/**
 * Schema.org structured data for search engines (issue 30): JSON-LD built from what a page already
 * loaded, serialized once on the server. The JSON text travels as `html`, a key the hydration data
 * leaves out (ADR 0029), so a document carries it once, in its <script type="application/ld+json">.
 */
export interface JsonLdText {
  /** JSON text safe inside a <script> element: "<", ">", "&", U+2028 and U+2029 escaped. */
  html: string;
}

const UNSAFE_IN_SCRIPT = /[<>&\u2028\u2029]/g;

/** JSON-LD as a data block's text: member text can neither end the element nor break a JS reader. */
export function structuredData(value: object): JsonLdText {
  return { html: JSON.stringify(value).replace(UNSAFE_IN_SCRIPT, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`) };
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'", nbsp: " " };

/**
 * The readable text of HTML the site rendered from Markdown, at most `max` characters: blocks apart,
 * inline tags dropped,
 * the entities our renderer writes decoded, whitespace collapsed. Linear in the input.
 */
export function plainText(html: string, max = 500): string {
  const text = html
    .replace(/<\/?(?:p|div|li|ul|ol|h[1-6]|blockquote|pre|br|hr|table|tr|td|th)\b[^>]*>/gi, " ")
    .replace(/<[^>]*>/g, "")
    .replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (_, name: string) => ENTITIES[name]!)
    .replace(/\s+/g, " ")
    .trim();
  return text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text;
}

interface AuthorRef {
  name: string;
  handle: string;
}

function person(base: string, author: AuthorRef) {
  const path = profilePath(author.handle);
  return { "@type": "Person", name: author.name, ...(path ? { url: `${base}${path}` } : {}) };
}

/**
 * The site itself and how to reach it: the home page's Organization and WebSite. Returned as an
 * object for the page's `meta` ("script:ld+json", which React Router escapes as structuredData
 * does): it holds no member text, and the home page then needs no component for it.
 */
export function siteStructuredData(base: string, name: string, description: string) {
  return {
    "@context": "https://schema.org",
    "@graph": [
      { "@type": "Organization", "@id": `${base}/#organization`, name, url: `${base}/`, logo: `${base}/favicon.svg`, description },
      {
        "@type": "WebSite",
        "@id": `${base}/#website`,
        name,
        url: `${base}/`,
        publisher: { "@id": `${base}/#organization` },
        // The site's own search (issue 30), for a search box under the site's result.
        potentialAction: {
          "@type": "SearchAction",
          target: { "@type": "EntryPoint", urlTemplate: `${base}/search?q={search_term_string}` },
          "query-input": "required name=search_term_string",
        },
      },
    ],
  };
}

interface AnswerFacts {
  id: number;
  html: string | null;
  helpful: number;
  accepted: boolean;
  createdAt: string;
  author: AuthorRef;
}

/** A question and its answers as Google's QAPage wants them: the accepted one apart, deleted ones left out. */
export function questionStructuredData(
  base: string,
  question: { id: number; title: string; html: string; createdAt: string; author: AuthorRef },
  answers: AnswerFacts[],
) {
  const url = `${base}/council/${question.id}`;
  const shown = answers.filter((a): a is AnswerFacts & { html: string } => a.html !== null);
  const answer = (a: AnswerFacts & { html: string }) => ({
    "@type": "Answer",
    text: plainText(a.html),
    datePublished: a.createdAt,
    upvoteCount: a.helpful,
    url: `${url}#answer-${a.id}`,
    author: person(base, a.author),
  });
  const accepted = shown.find((a) => a.accepted);
  const suggested = shown.filter((a) => !a.accepted);
  return structuredData({
    "@context": "https://schema.org",
    "@type": "QAPage",
    mainEntity: {
      "@type": "Question",
      name: question.title,
      text: plainText(question.html) || question.title,
      answerCount: shown.length,
      datePublished: question.createdAt,
      author: person(base, question.author),
      ...(accepted ? { acceptedAnswer: answer(accepted) } : {}),
      ...(suggested.length > 0 ? { suggestedAnswer: suggested.map(answer) } : {}),
    },
  });
}

/** A discussion or a creation and the comments this page shows, as a DiscussionForumPosting. */
export function postingStructuredData(
  base: string,
  post: { path: string; title: string; html: string; description?: string; createdAt: string; author: AuthorRef; commentCount: number; likeCount?: number },
  comments: { id: string; html: string | null; hidden?: boolean; createdAt: string; author: AuthorRef }[],
) {
  const url = `${base}${post.path}`;
  return structuredData({
    "@context": "https://schema.org",
    "@type": "DiscussionForumPosting",
    headline: post.title,
    text: plainText(post.html) || post.description || post.title,
    url,
    datePublished: post.createdAt,
    author: person(base, post.author),
    interactionStatistic: [
      { "@type": "InteractionCounter", interactionType: "https://schema.org/CommentAction", userInteractionCount: post.commentCount },
      ...(post.likeCount === undefined
        ? []
        : [{ "@type": "InteractionCounter", interactionType: "https://schema.org/LikeAction", userInteractionCount: post.likeCount }]),
    ],
    comment: comments
      .filter((c) => c.html !== null && !c.hidden)
      .map((c) => ({ "@type": "Comment", text: plainText(c.html!), datePublished: c.createdAt, url: `${url}#${c.id}`, author: person(base, c.author) })),
  });
}

/** An event as Google's Event wants it: online, in a place or both, and cancelled when it is. */
export function eventStructuredData(
  base: string,
  event: {
    id: number;
    title: string;
    descriptionHtml: string;
    startsAt: string;
    endsAt: string;
    onlineUrl: string | null;
    place: string | null;
    cancelled: boolean;
    host: AuthorRef;
  },
) {
  const online = event.onlineUrl ? { "@type": "VirtualLocation", url: event.onlineUrl } : null;
  const place = event.place ? { "@type": "Place", name: event.place, address: event.place } : null;
  const mode = online && place ? "MixedEventAttendanceMode" : online ? "OnlineEventAttendanceMode" : "OfflineEventAttendanceMode";
  const location = [place, online].filter((l) => l !== null);
  return structuredData({
    "@context": "https://schema.org",
    "@type": "Event",
    name: event.title,
    description: plainText(event.descriptionHtml),
    startDate: event.startsAt,
    endDate: event.endsAt,
    url: `${base}/events/${event.id}`,
    eventStatus: `https://schema.org/${event.cancelled ? "EventCancelled" : "EventScheduled"}`,
    eventAttendanceMode: `https://schema.org/${mode}`,
    ...(location.length > 0 ? { location: location.length === 1 ? location[0] : location } : {}),
    organizer: person(base, event.host),
  });
}

/**
 * A member's profile as Google's ProfilePage wants it: the Person, when they joined, and how much
 * they wrote (issue 30). Only what the page itself shows.
 */
export function profileStructuredData(
  base: string,
  profile: { name: string; handle: string; bio: string | null; joinedAt: string; rankLabel: string; posts: number },
) {
  const url = `${base}/members/${profile.handle}`;
  return structuredData({
    "@context": "https://schema.org",
    "@type": "ProfilePage",
    url,
    dateCreated: profile.joinedAt,
    mainEntity: {
      "@type": "Person",
      name: profile.name,
      alternateName: `@${profile.handle}`,
      identifier: profile.handle,
      url,
      ...(profile.bio ? { description: profile.bio } : {}),
      jobTitle: profile.rankLabel,
      interactionStatistic: { "@type": "InteractionCounter", interactionType: "https://schema.org/WriteAction", userInteractionCount: profile.posts },
    },
  });
}
