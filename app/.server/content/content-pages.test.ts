import { describe, expect, it } from "vitest";
import { CONTENT_PAGES, contentPage, parseContentPage } from "./content-pages";
import { SIGN_IN_LIMIT } from "~/lib/limits";
import { INITIATE_DAILY_POSTS } from "~/lib/privileges";
import { rankById } from "~/lib/ranks";
import { formatCount } from "~/lib/utils";
import { DAILY_VOTE_XP_CAP, XP } from "~/lib/xp";

const FRONT = "---\ntitle: T\ndescription: D\n---\n";
const textOf = (slug: string) => JSON.stringify(contentPage(slug));

describe("content pages", () => {
  it("loads every page routes.ts mounts, each with a title, a description and anchored sections", () => {
    expect([...CONTENT_PAGES.keys()].sort()).toEqual(["code-of-conduct", "faq", "manifesto", "markdown", "privacy", "terms"]);
    for (const page of CONTENT_PAGES.values()) {
      expect(page.title).not.toBe("");
      expect(page.description).not.toBe("");
      expect(page.sections.length).toBeGreaterThan(0);
      expect(new Set(page.sections.map((s) => s.id)).size).toBe(page.sections.length);
    }
  });

  it("quotes the rules' own numbers, not copies", () => {
    const faq = textOf("faq");
    expect(faq).toContain(`start a discussion: ${XP["discussion.started"]} XP`);
    expect(faq).toContain(`complete a challenge: ${XP["challenge.completed"]} XP`);
    expect(faq).toContain(`counts at most ${DAILY_VOTE_XP_CAP} a day`);
    expect(faq).toContain(`Warlord from ${formatCount(rankById("warlord").minXp)}`);
    expect(faq).toContain(`Initiates may start ${INITIATE_DAILY_POSTS} discussions`);
    expect(textOf("privacy")).toContain(`after ${SIGN_IN_LIMIT} attempts in 15 minutes`);
    expect(JSON.stringify([...CONTENT_PAGES.values()])).not.toContain("{{");
  });

  it("keeps links as links, styled as the site's text and mail links", () => {
    const page = parseContentPage("t", `${FRONT}## A {#a}\n\nSee [the terms](/terms) or write to <{{contact.email}}>.\n`);
    const block = page.sections[0].blocks[0];
    expect(block).toMatchObject({ kind: "html", tag: "p" });
    const html = (block as { html: string }).html;
    expect(html).toContain('<a href="/terms" class="font-medium text-monk-strong underline');
    expect(html).toContain('<a href="mailto:hello@innerpeace.example" class="font-medium break-all');
  });

  it("shows no raw HTML from a file, as text", () => {
    const page = parseContentPage("t", `${FRONT}## A {#a}\n\n<script>alert(1)</script>\n`);
    expect(JSON.stringify(page)).not.toContain("<script>");
  });

  it("reads virtue lists, buttons with their members' variant, and questions", () => {
    expect(contentPage("manifesto")?.sections.find((s) => s.id === "begin")?.blocks[1]).toEqual({
      kind: "buttons",
      buttons: [
        { label: "Join the Path", to: "/join", member: { label: "Continue Your Path", to: "/dashboard" } },
        { label: "See the Rank System", to: "/ranks", member: undefined },
      ],
    });
    const virtues = contentPage("manifesto")?.sections.find((s) => s.id === "virtues")?.blocks[1];
    expect(virtues).toMatchObject({ kind: "virtues" });
    const items = (virtues as { items: { virtue: string; html: string }[] }).items;
    expect(items.map((i) => i.virtue)).toEqual(["discipline", "courage", "wisdom", "honor", "resilience", "compassion"]);
    expect(items[0].html).toBe("Small promises kept every day beat grand plans abandoned by Friday.");
    const faq = contentPage("faq")!;
    expect(faq.tabTitle).toBe("FAQ");
    expect(faq.sections[0].blocks[0]).toMatchObject({ kind: "question", question: "What is Inner Peace. Outer Strength.?" });
  });

  it.each([
    ["no front matter", "## A {#a}\n", "must start with a --- block"],
    ["an unknown value", `${FRONT}## A {#a}\n\n{{xp.nonsense}}\n`, "unknown value {{xp.nonsense}}"],
    ["a heading without an anchor", `${FRONT}## A\n`, '"## A" needs an anchor'],
    ["an unknown virtue", `${FRONT}## A {#a}\n\n- {{virtue:greed}} x\n`, "unknown virtue"],
    ["a bad date", "---\ntitle: T\ndescription: D\nupdated: soon\n---\n", "updated must be YYYY-MM-DD"],
    ["an unknown key", "---\ntitle: T\ndescription: D\nlayout: wide\n---\n", 'unknown key "layout"'],
  ])("stops the start on %s, naming the file", (_, source, message) => {
    expect(() => parseContentPage("bad", source)).toThrow(`content/bad.md: ${message}`);
  });
});
