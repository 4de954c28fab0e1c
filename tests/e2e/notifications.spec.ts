import type { Browser, Page } from "@playwright/test";
import { memberIdByEmail } from "../factories/member";
import { withSiteDatabase } from "./support/database";
import { createMember, expect, expectNoSeriousViolations, gotoHydrated, type Member, newMember, test } from "./support/fixtures";
import { queuedMailKinds } from "./support/outbox";

// Issue 28's "done when", in the browser: B replies to A's discussion and mentions C; A and C see the
// bell's count, open the notification and land on the reply; A mutes B, and B's next reply does not
// notify A. A's open discussion hears of the reply, and A's and C's bells change without a reload
// (the live client, public/live.js, over /live).

/** Where the discussion is started: a topic no other spec posts in, and which A does not join. */
const TOPIC = "/battlefield/cold-exposure";

// B's and C's pages are in contexts of their own, without the fixtures' hydration hook: they act
// through the forms and menus that work before (and without) hydration.

/** The member's handle, from the Profile link of their account menu. */
async function handleOf(page: Page, name: string) {
  await page.goto("/dashboard");
  await page.getByLabel(`Account menu for ${name}`).click();
  const href = await page.getByRole("link", { name: "Profile", exact: true }).getAttribute("href");
  return href!.replace("/members/", "");
}

async function reply(page: Page, url: string, text: string) {
  await page.goto(`${url}?page=last`);
  await page.getByLabel("Your reply").fill(text);
  await page.getByRole("button", { name: "Post Reply" }).click();
  await expect(page.getByText(text)).toBeVisible();
}

/**
 * B ("Bo Northwind") and C joined, each in a browser context of their own, for `journey` with C's
 * handle; both contexts are closed when it ends, however it ends.
 */
async function withBoAndCy(browser: Browser, cyMember: Member, journey: (bo: Page, cy: Page, cyHandle: string) => Promise<void>) {
  const boContext = await browser.newContext();
  const cyContext = await browser.newContext();
  try {
    const bo = await boContext.newPage();
    const cy = await cyContext.newPage();
    await createMember(bo.request, newMember("Bo Northwind"));
    await createMember(cy.request, cyMember);
    await journey(bo, cy, await handleOf(cy, cyMember.name));
  } finally {
    await boContext.close();
    await cyContext.close();
  }
}

/** A starts a discussion in TOPIC and is left on it; returns its address. */
async function startDiscussion(page: Page, title: string) {
  await gotoHydrated(page, `${TOPIC}/new`);
  const main = page.getByRole("main");
  await main.getByLabel("Title").fill(title);
  await main.getByLabel("Your post").fill("Three minutes, then breakfast. Who else?");
  await main.getByRole("button", { name: "Post Discussion" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
  return page.url();
}

/** The bell, by the name it has for this count ("Notifications" at none). */
const bell = (page: Page, unread: number) =>
  page.getByRole("banner").getByRole("link", { name: unread === 0 ? "Notifications" : `Notifications (${unread} unread)`, exact: true });

test("a reply rings the starter's and the mentioned member's bells, opening a notification lands on the reply, and a muted member notifies no one", async ({
  page,
  browser,
}) => {
  // Three members and a dozen page loads: longer than one page's journey.
  test.setTimeout(180_000);
  const title = `Cold showers before sunrise ${Date.now()}`;
  await createMember(page.request, newMember("Asa Starter"));
  await withBoAndCy(browser, newMember("Cy Mentioned"), async (bo, cy, cyHandle) => {
    // A starts a discussion; nothing rings yet.
    const url = await startDiscussion(page, title);
    // A keeps the discussion open and C the home page, their live streams listening (a stream's
    // answer is its start).
    const listening = page.waitForResponse((res) => new URL(res.url()).pathname === "/live");
    await gotoHydrated(page, url);
    await listening;
    await expect(bell(page, 0)).toBeVisible();
    const cyListening = cy.waitForResponse((res) => new URL(res.url()).pathname === "/live");
    await cy.goto("/");
    await cyListening;
    await expect(bell(cy, 0)).toBeVisible();

    // B replies and mentions C.
    const said = `Every morning since March, @${cyHandle} talked me into it.`;
    await reply(bo, url, said);

    // Without a reload: A's bell says one unread and the page offers the new reply.
    await expect(bell(page, 1)).toBeVisible();
    await expect(page.getByRole("button", { name: "1 new reply — show" })).toBeVisible();
    // The topic's list says what is new to A.
    await page.goto(TOPIC);
    const listed = page.getByRole("main").getByRole("listitem").filter({ hasText: title });
    await expect(listed.getByText("1 new", { exact: true })).toBeVisible();
    // A opens the notification from the list and lands on B's reply.
    await bell(page, 1).click();
    await expect(page.getByRole("heading", { level: 1, name: "Notifications" })).toBeVisible();
    await expect(page.getByText("New", { exact: true })).toBeVisible();
    await expectNoSeriousViolations(page);
    await page.getByRole("button", { name: `Bo Northwind replied in "${title}"` }).click();
    await expect(page).toHaveURL(/#reply-\d+$/);
    const anchor = new URL(page.url()).hash.slice(1);
    await expect(page.locator(`[id="${anchor}"]`)).toContainText("Every morning since March");
    await page.reload();
    await expect(bell(page, 0)).toBeVisible();
    // Read, the reply is no longer new in the topic's list.
    await page.goto(TOPIC);
    await expect(listed).toBeVisible();
    await expect(listed.getByText("1 new", { exact: true })).toHaveCount(0);
    await page.goBack();

    // C, mentioned, was told too, without a reload, and lands on the same reply. The bell's twin in
    // the (closed) mobile menu changed with it.
    await expect(bell(cy, 1)).toBeVisible();
    await expect(cy.locator('#mobile-menu a[href="/notifications"]')).toHaveAttribute("aria-label", "Notifications (1 unread)");
    await bell(cy, 1).click();
    await cy.getByRole("button", { name: `Bo Northwind mentioned you in "${title}"` }).click();
    await expect(cy).toHaveURL(new RegExp(`#${anchor}$`));

    // A mutes B from B's profile, reached from the reply's byline.
    await page
      .locator(`[id="${anchor}"]`)
      .getByRole("link", { name: /^Bo Northwind/ })
      .first()
      .click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Bo Northwind");
    await expect(page.getByText("You will not be notified of anything they do.")).toBeVisible();
    await page.getByRole("button", { name: "Mute Bo Northwind" }).click();
    await expect(page.getByRole("button", { name: "Unmute Bo Northwind" })).toBeVisible();
    await expectNoSeriousViolations(page);

    // B's next reply does not notify A.
    await reply(bo, url, "Still going, even in the rain.");
    await gotoHydrated(page, "/notifications");
    await expect(bell(page, 0)).toBeVisible();
    await expect(page.getByText("New", { exact: true })).toHaveCount(0);
    await expect(page.getByRole("button", { name: `Bo Northwind replied in "${title}"` })).toHaveCount(1);

    // The mute is listed in the settings, beside the notification settings.
    await gotoHydrated(page, "/settings");
    await expect(page.getByRole("form", { name: "Notifications" }).getByRole("group", { name: "Mentions of you" }).getByLabel("By mail")).toBeChecked();
    await expect(page.getByRole("button", { name: "Unmute Bo Northwind" })).toBeVisible();
    await expectNoSeriousViolations(page);
  });
});

test("the digest mail goes to the member who stayed away and not to the one who read it, and its link stops that kind of mail", async ({ page, browser }) => {
  // The digest job looks once a minute (ADR 0058), so this journey waits up to two.
  test.setTimeout(240_000);
  const title = `Ice baths after the long run ${Date.now()}`;
  const asa = newMember("Asa Reader");
  const cyMember = newMember("Cy Away");
  await createMember(page.request, asa);
  await withBoAndCy(browser, cyMember, async (bo, cy, cyHandle) => {
    // B replies to A's discussion and mentions C; A reads the notification, C stays away.
    const url = await startDiscussion(page, title);
    await reply(bo, url, `Ten degrees for two minutes, @${cyHandle} swears by it.`);
    await gotoHydrated(page, "/notifications");
    await page.getByRole("button", { name: `Bo Northwind replied in "${title}"` }).click();
    await expect(page).toHaveURL(/#reply-\d+$/);
    await expect(bell(page, 0)).toBeVisible();

    // An hour passes: the server's clock cannot be moved, so both lines are made an hour older.
    const [asaId, cyId] = await withSiteDatabase((db) => Promise.all([memberIdByEmail(db, asa.email), memberIdByEmail(db, cyMember.email)]));
    const anHourAgo = new Date(Date.now() - 61 * 60 * 1000).toISOString();
    await withSiteDatabase((db) => db.updateTable("notification").set({ at: anHourAgo }).where("member_id", "in", [asaId, cyId]).execute());

    // The next run of the digest job mails C, and only C: A read everything there was.
    const digest = () =>
      withSiteDatabase((db) =>
        db
          .selectFrom("mail_outbox")
          .select(["subject", "text_body"])
          .where("to_address", "=", cyMember.email)
          .where("kind", "=", "notification-digest")
          .executeTakeFirst(),
      );
    await expect
      .poll(async () => (await digest())?.subject ?? null, { timeout: 150_000, intervals: [2_000] })
      .toBe("1 new notification on Inner Peace. Outer Strength.");
    expect(await queuedMailKinds(asa.email)).not.toContain("notification-digest");
    const text = (await digest())!.text_body;
    expect(text).toContain(`- Bo Northwind mentioned you in "${title}"`);

    // C follows the mail's line to the reply itself.
    const replyLink = text.match(/mentioned you in .*\n\s+(\S+)/)![1]!;
    await cy.goto(replyLink);
    await expect(cy).toHaveURL(/#reply-\d+$/);
    const anchor = new URL(cy.url()).hash.slice(1);
    await expect(cy.locator(`[id="${anchor}"]`)).toContainText("Ten degrees for two minutes");

    // And the mail's own link stops mail about mentions, without touching the other kinds.
    const stopLink = text.match(/Stop mail about mentions of you: (\S+)/)![1]!;
    await cy.goto(stopLink);
    await expect(cy.getByText("Stop mail about mentions of you?")).toBeVisible();
    await cy.getByRole("button", { name: "Stop mail" }).click();
    await expect(cy.getByText("Mail stopped")).toBeVisible();
    await cy.getByRole("link", { name: "Notification settings" }).click();
    const settings = cy.getByRole("form", { name: "Notifications" });
    await expect(settings.getByRole("group", { name: "Mentions of you" }).getByLabel("By mail")).not.toBeChecked();
    await expect(settings.getByRole("group", { name: "Mentions of you" }).getByLabel("In the site")).toBeChecked();
    await expect(settings.getByRole("group", { name: "Replies in discussions you watch" }).getByLabel("By mail")).toBeChecked();
  });
});
