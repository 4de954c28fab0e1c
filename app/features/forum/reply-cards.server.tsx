import { renderToStaticMarkup } from "react-dom/server";
import { ReplyCardMarkup, type ReplyCardContent } from "~/components/community/reply-card";

/** About 3 KB a card with its key: a few MB at most. */
const LIMIT = 2000;
const cards = new Map<string, string>();

/**
 * The viewer-independent part of a reply card (ReplyCardMarkup) as HTML, rendered once per version
 * of the reply and reused by every request (issue 13: rendering the 50 cards of a discussion page was
 * about a third of a signed-in page's server time). The key is everything the markup is made of, so
 * an edit, a deletion, a moderator hiding the reply or the author's new name or rank gives a new key
 * (and new markup) without any invalidation; an entry no page asks for any more ages out of the
 * bounded map (least recently used first).
 */
export function replyCardHtml(reply: ReplyCardContent, withText: boolean): string {
  const { author, createdAt, edited, hidden, html } = reply;
  const key = JSON.stringify([withText, author.handle, author.name, author.rank, createdAt, edited, hidden, withText ? html : null]);
  const cached = cards.get(key);
  if (cached !== undefined) {
    // Most recently used goes last: Map keeps insertion order.
    cards.delete(key);
    cards.set(key, cached);
    return cached;
  }
  const markup = renderToStaticMarkup(<ReplyCardMarkup reply={reply} withText={withText} />);
  cards.set(key, markup);
  if (cards.size > LIMIT) cards.delete(cards.keys().next().value!);
  return markup;
}

/** For tests: how many cards are held. */
export function replyCardsHeld() {
  return cards.size;
}
