import { describe, expect, it } from "vitest";
import { replyCardCharsHeld, replyCardHtml, replyCardsHeld } from "~/features/forum/reply-cards.server";
import type { ReplyCardContent } from "~/components/community/reply-card";
import { DELETED_HANDLE_PREFIX } from "~/lib/members";
import { hiddenBadgeText } from "~/lib/flags";

const reply = (over: Partial<ReplyCardContent> = {}): ReplyCardContent => ({
  id: 7,
  author: { name: "Tara <Author>", handle: "tara", rank: "acolyte" },
  createdAt: "2026-11-23T10:00:00.000Z",
  edited: false,
  badge: null,
  veiled: false,
  replyTo: null,
  html: "<p>First words.</p>",
  ...over,
});

describe("replyCardHtml", () => {
  it("renders byline, date and text, with the profile link for client-side navigation", () => {
    const html = replyCardHtml(reply(), true);
    expect(html).toContain('href="/members/tara"');
    expect(html).toContain("data-client-link");
    expect(html).toContain('data-discover="true"');
    expect(html).toContain("Tara &lt;Author&gt;");
    expect(html).toContain("Acolyte");
    expect(html).toContain("replied Nov 23, 2026");
    expect(html).toContain('<div class="prose-member mt-3"><p>First words.</p></div>');
    expect(html).not.toContain("edited");
  });

  it("renders a reply once and reuses it while nothing it shows changes", () => {
    const first = replyCardHtml(reply({ createdAt: "2026-11-20T10:00:00.000Z" }), true);
    const held = replyCardsHeld();
    expect(replyCardHtml(reply({ createdAt: "2026-11-20T10:00:00.000Z" }), true)).toBe(first);
    expect(replyCardsHeld()).toBe(held);
  });

  it("shows an edit, a deletion, a moderator's hiding and the author's new name or rank at once", () => {
    const base = replyCardHtml(reply(), true);
    const edited = replyCardHtml(reply({ edited: true, html: "<p>Second thoughts.</p>" }), true);
    expect(edited).toContain("Second thoughts.");
    expect(edited).not.toContain("First words.");
    // "edited" links to the reply's history.
    expect(edited).toContain('\u00a0· <a href="/history/reply/7"');
    expect(edited).toMatch(/<a href="\/history\/reply\/7"[^>]*>edited<\/a>/);
    const deleted = replyCardHtml(reply({ html: null }), true);
    expect(deleted).toContain("[deleted]");
    expect(deleted).not.toContain("First words.");
    expect(replyCardHtml(reply({ badge: "Hidden by a moderator" }), true)).toContain("Hidden by a moderator");
    // The flags hid it: the author and the moderators read why; everyone else reads that in place of its words.
    const underReview = replyCardHtml(reply({ badge: hiddenBadgeText({ hidden: true, review: "flags", veiled: false }) }), true);
    expect(underReview).toContain("Under review");
    expect(underReview).toContain("First words.");
    const veiled = replyCardHtml(reply({ badge: hiddenBadgeText({ hidden: true, review: "flags", veiled: true }), veiled: true, html: null }), true);
    expect(veiled).toContain("Hidden while the community reviews it.");
    expect(veiled).not.toContain("[deleted]");
    expect(veiled).not.toContain("Under review");
    expect(replyCardHtml(reply({ badge: hiddenBadgeText({ hidden: true, review: "approval", veiled: false }) }), true)).toContain("Waiting for approval");
    expect(hiddenBadgeText({ hidden: true, review: null, veiled: false })).toBe("Hidden by a moderator");
    expect(hiddenBadgeText({ hidden: false, review: null, veiled: false })).toBeNull();
    expect(replyCardHtml(reply({ author: { name: "Tara Renamed", handle: "tara", rank: "acolyte" } }), true)).toContain("Tara Renamed");
    expect(replyCardHtml(reply({ replyTo: { name: "Omar <O>", url: "/monastery/t/1-x?after=3#reply-4" } }), true)).toMatch(
      /in reply to <a href="\/monastery\/t\/1-x\?after=3#reply-4"[^>]*>Omar &lt;O&gt;<\/a>/,
    );
    expect(replyCardHtml(reply({ author: { name: "Tara <Author>", handle: "tara", rank: "master" } }), true)).toContain("Master");
    // Nothing it was given changed: the first markup is still what it gives.
    expect(replyCardHtml(reply(), true)).toBe(base);
  });

  it("leaves the text out while the author edits it, and keeps a deleted member's name as text", () => {
    const editing = replyCardHtml(reply(), false);
    expect(editing).toContain("Tara &lt;Author&gt;");
    expect(editing).not.toContain("First words.");
    const gone = replyCardHtml(reply({ author: { name: "[deleted member]", handle: `${DELETED_HANDLE_PREFIX}1`, rank: "initiate" } }), true);
    expect(gone).toContain("[deleted member]");
    expect(gone).not.toContain("<a ");
  });

  it("holds at most 16 M characters of cards however long the replies are, newest kept", () => {
    const long = "<p>" + "x".repeat(40_000) + "</p>";
    for (let i = 0; i < 300; i++)
      replyCardHtml(reply({ createdAt: `2026-10-01T00:00:${String(i % 60).padStart(2, "0")}.${String(i).padStart(3, "0")}Z`, html: long }), true);
    expect(replyCardCharsHeld()).toBeLessThanOrEqual(16 * 1024 * 1024);
    expect(replyCardsHeld()).toBeLessThan(300);
    const newest = reply({ createdAt: "2026-10-01T00:00:59.299Z", html: long });
    const held = replyCardsHeld();
    replyCardHtml(newest, true);
    expect(replyCardsHeld()).toBe(held);
  });
});
