import type { Page } from "@playwright/test";
import { PASSWORD, actAs, expect, gotoHydrated, joinAs, test, uniqueEmail } from "./support/fixtures";
import { makeAdmin, withSiteDatabase } from "./support/database";
import { shareCreation } from "./support/forge";
import { startDiscussion } from "./support/forum";

/*
 * Issue 26, items 1, 2 and 12 in the browser, where layout is the point (ADR 0048): member text with
 * a 70-letter word or a long URL never widens the page, an anchored reply clears the sticky header,
 * and a text-only Forge card is not stretched to its row's height.
 */

const WORD = "Pneumonoultramicroscopicsilicovolcanoconiosis".padEnd(70, "x");
const URL_TEXT = `https://example.org/${"very-long-path-segment-without-any-break-".repeat(3)}end`;
const LONG = `${WORD} and ${URL_TEXT}`;
const WIDTHS = [375, 1280] as const;

/** The page is no wider than the window: nothing runs past the screen's edge. */
async function expectNoSidewaysScroll(page: Page, path: string) {
  await page.goto(path);
  const { scroll, inner } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }));
  expect(scroll, `${path} at ${inner} px is ${scroll} px wide`).toBeLessThanOrEqual(inner);
}

test("a 70-letter word and a long URL wrap in every kind of member text, at 375 and 1280 px", async ({ page }) => {
  test.setTimeout(120_000);
  // A bio, through the join form's optional field.
  await page.context().clearCookies();
  const email = uniqueEmail("layout");
  const joined = await page.request.post("/join", {
    form: { fullName: "Wren Wrapper", email, password: PASSWORD, confirmPassword: PASSWORD, termsAccepted: "on", bio: LONG },
  });
  expect(await joined.text()).toContain("Registration Successful!");
  await makeAdmin(email);

  // A discussion and a reply.
  const discussion = await startDiscussion(page, `${WORD} title`, LONG);
  await page.getByLabel("Your reply").fill(LONG);
  await page.getByRole("button", { name: "Post Reply" }).click();
  await expect(page.locator("li[id^=reply-]").getByText(WORD)).toBeVisible();

  // A creation and a comment on it.
  const creationId = await shareCreation(email, { title: `${WORD} creation` });
  await gotoHydrated(page, `/forge/${creationId}`);
  await page.getByLabel("Your comment").fill(LONG);
  await page.getByRole("button", { name: "Post Comment" }).click();
  await expect(page.locator("[id^=comment-]").getByText(WORD)).toBeVisible();

  // An event whose title, description and place carry the long word and the URL.
  const day = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
  await gotoHydrated(page, "/events/new");
  await page.getByLabel("Title").fill(`${WORD} sit`);
  await page.getByLabel("Description").fill(LONG);
  await page.getByLabel("Path").selectOption("monk");
  await page.getByLabel("Starts").fill(`${day}T06:30`);
  await page.getByLabel("Ends").fill(`${day}T07:15`);
  await page.getByLabel("Time zone").selectOption("Europe/Berlin");
  await page.getByLabel("Place").fill(WORD);
  await page.getByLabel("Capacity").fill("5");
  await page.getByRole("button", { name: "Create Event" }).click();
  await expect(page).toHaveURL(/\/events\/\d+$/);
  const eventPath = new URL(page.url()).pathname;

  const profile = await page.evaluate(() => document.querySelector<HTMLAnchorElement>('a[href^="/members/"]')?.getAttribute("href"));
  const paths = [discussion, "/monastery/mindful-living", `/forge/${creationId}`, "/forge", eventPath, "/events", profile ?? ""];
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 800 });
    for (const path of paths) await expectNoSidewaysScroll(page, path);
  }
});

test("a reply just posted, and a #reply-N link, show the reply's author line below the sticky header", async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 700 });
  await joinAs(page, "Hana Header");
  // A long opening post, so the page can scroll the reply to its top.
  const body = Array.from({ length: 12 }, (_, i) => `Paragraph ${i + 1}: a morning of quiet sitting, then the day.`).join("\n\n");
  const discussion = await startDiscussion(page, "Where the header ends and the reply starts", body);
  await page.getByLabel("Your reply").fill("The line with my name must not hide under the bar.");
  await page.getByRole("button", { name: "Post Reply" }).click();
  await expect(page).toHaveURL(/#reply-\d+$/);
  const hash = new URL(page.url()).hash;

  const expectClear = async () => {
    const reply = page.locator(hash);
    const byline = reply.locator("[data-slot=byline]");
    await expect(byline).toBeVisible();
    // Wait until the browser has scrolled to the target.
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
    const header = (await page.getByRole("banner").boundingBox())!;
    const line = (await byline.boundingBox())!;
    expect(line.y, "the author line starts below the header").toBeGreaterThanOrEqual(header.y + header.height);
  };
  await expectClear();

  await actAs(page, null);
  await page.goto(`${discussion.replace(/[?#].*$/, "")}?page=last${hash}`);
  await expectClear();
});

test("a text-only Forge card keeps its own height beside a taller card", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  const member = await joinAs(page, "Tall Teller");
  // The newest creation, first in its row, with a description several lines long: without the fix
  // its row's shorter cards stretch to its height.
  const title = `A long account of a long walk ${Math.random().toString(36).slice(2, 8)}`;
  const id = await shareCreation(member.email, { title });
  await withSiteDatabase((db) =>
    db
      .updateTable("creation")
      .set({ description: "We walked from dawn until the light went, and wrote down what we saw. ".repeat(6) })
      .where("id", "=", id)
      .execute(),
  );
  // As that member, whose pages no cache holds yet: the row written above shows. Writing only:
  // forge-engage.spec.ts shares 13 projects dated an hour ahead, which would push this one off
  // the unfiltered first page whenever it ran first on the shared server.
  await page.goto("/forge?type=writing");
  await expect(page.getByRole("heading", { name: title })).toBeVisible();
  const cards = page.locator("section[aria-labelledby=creations] [data-slot=card]");
  await expect(cards.first()).toBeVisible();
  const stretched = await cards.evaluateAll((all) =>
    all
      .filter((card) => !card.querySelector("img"))
      .map((card) => {
        // A stretched card hands its extra height to the description (flex-1): measure the
        // description's box against the lines of text in it.
        const description = card.querySelector("p.text-muted") as HTMLElement;
        const range = document.createRange();
        range.selectNodeContents(description);
        return {
          title: card.querySelector("h3")?.textContent ?? "",
          spare: description.getBoundingClientRect().height - range.getBoundingClientRect().height,
        };
      })
      // A line box is a few pixels taller than its glyphs; a stretched card leaves lines of white.
      .filter((c) => c.spare > 10),
  );
  expect(stretched, "text-only cards with white space below their description").toEqual([]);
});
