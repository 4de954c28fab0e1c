import { renderToStaticMarkup } from "react-dom/server";
import { ReplyCardMarkup, type ReplyCardContent } from "~/components/community/reply-card";
import { Lru } from "~/lib/lru";

/**
 * A bound in entries and in characters: a card's key holds its rendered text, and a hostile member's
 * longest replies make a card of some 100 KB with its key, where a usual one is about 3 KB.
 */
const cards = new Lru<string, string>(2000, { weigh: (key, markup) => key.length + markup.length, maxWeight: 16 * 1024 * 1024 });

/**
 * The viewer-independent part of a reply card (ReplyCardMarkup) as HTML, rendered once per version
 * of the reply and reused by every request (issue 13: rendering the 50 cards of a discussion page was
 * about a third of a signed-in page's server time). The key is everything the markup is made of, so
 * an edit, a deletion, a moderator hiding the reply or the author's new name, rank or picture gives a new key
 * (and new markup) without any invalidation; an entry no page asks for any more ages out of the
 * bounded map (least recently used first).
 */
export function replyCardHtml(reply: ReplyCardContent, withText: boolean): string {
  const { id, author, createdAt, edited, badge, veiled, replyTo, html } = reply;
  // An edited reply links to its own history: its id is then part of what the markup is made of.
  const key = JSON.stringify([
    withText,
    author.handle,
    author.name,
    author.rank,
    author.avatar ?? null,
    createdAt,
    edited ? id : null,
    badge,
    veiled,
    replyTo?.name ?? null,
    replyTo?.url ?? null,
    withText ? html : null,
  ]);
  const cached = cards.get(key);
  if (cached !== undefined) return cached;
  const markup = renderToStaticMarkup(<ReplyCardMarkup reply={reply} withText={withText} />);
  cards.set(key, markup);
  return markup;
}

/** For tests: how many cards are held, and their keys' and markup's characters. */
export function replyCardsHeld() {
  return cards.size;
}

export function replyCardCharsHeld() {
  return cards.weight;
}
