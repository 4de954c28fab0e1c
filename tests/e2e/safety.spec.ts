import { makeModerator } from "./support/database";
import { actAs, expect, expectNoSeriousViolations, gotoHydrated, joinAs, test } from "./support/fixtures";
import { startDiscussion } from "./support/forum";

// Issue 31's journeys of safety: three new members flag a reply, a visitor no longer sees its text, and
// a moderator restores it from /review, after which the visitor sees it again.
test("three new members flag a reply and a visitor no longer sees it; a moderator restores it from /review", async ({ page }) => {
  const spammer = await joinAs(page, "Sol Spammer");
  const url = await startDiscussion(page, "Evening stretches", "Five minutes before bed.");
  const words = `Cheap yoga mats at my shop, today only ${Date.now()}.`;
  await page.getByLabel("Your reply").fill(words);
  await page.getByRole("button", { name: "Post Reply" }).click();
  await expect(page.getByText(words)).toBeVisible();

  for (const name of ["Ada Flagger", "Bo Flagger", "Cy Flagger"]) {
    await joinAs(page, name);
    await gotoHydrated(page, url);
    await page.getByRole("listitem").filter({ hasText: words }).getByRole("link", { name: "Flag", exact: true }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Flag a Post" })).toBeVisible();
    await page.getByLabel("Abusive").check();
    await page.getByRole("button", { name: "Flag Post" }).click();
    await expect(page.getByRole("main").getByRole("status")).toContainText("Thank you. The moderators will review this post.");
  }
  await expectNoSeriousViolations(page);

  await actAs(page, null);
  await gotoHydrated(page, url);
  await expect(page.getByRole("heading", { level: 1, name: "Evening stretches" })).toBeVisible();
  await expect(page.getByText(words)).toHaveCount(0);
  await expect(page.getByText("Hidden while the community reviews it.")).toBeVisible();
  // Its author still reads it, told why nobody else does.
  await actAs(page, spammer);
  await gotoHydrated(page, url);
  await expect(page.getByText(words)).toBeVisible();
  await expect(page.getByRole("note")).toContainText("it is hidden while the community reviews it");

  const moderator = await joinAs(page, "Moe Moderator");
  await makeModerator(moderator.email);
  await gotoHydrated(page, "/");
  await page.getByLabel(`Account menu for ${moderator.name}`, { exact: true }).click();
  await page.getByRole("link", { name: "Review", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Review" })).toBeVisible();
  const item = page.getByRole("article").filter({ hasText: words.slice(0, 30) });
  await expect(item.getByText("Hidden by flags")).toBeVisible();
  await expect(item.getByText("Cy Flagger")).toBeVisible();
  await expectNoSeriousViolations(page);
  // One key decides the post in focus: D for Disagree.
  await item.getByRole("heading", { level: 2 }).focus();
  await page.keyboard.press("d");
  await expect(page.getByRole("article").filter({ hasText: words.slice(0, 30) })).toHaveCount(0);

  await actAs(page, null);
  await gotoHydrated(page, url);
  await expect(page.getByText(words)).toBeVisible();
});

// A new member's first post with two links waits for a moderator's approval: its author is told, a
// visitor does not see it, and once a moderator approves it on /review, everyone does.
test("a new member's spammy first post waits for approval, and shows once a moderator approves it", async ({ page }) => {
  await joinAs(page, "Dana Starter");
  const url = await startDiscussion(page, "Morning light", "Sitting by the window at dawn.");
  const newcomer = await joinAs(page, "Nico Newcomer");
  await gotoHydrated(page, url);
  const words = `Great mats at https://mats.example and https://cushions.example ${Date.now()}`;
  await page.getByLabel("Your reply").fill(words);
  await page.getByRole("button", { name: "Post Reply" }).click();
  await expect(page.getByText("Your post waits for a moderator's approval").first()).toBeVisible();
  // Its author reads it where it will show, with why nobody else does yet.
  await expect(page.getByText(words)).toBeVisible();
  await expect(page.getByRole("note")).toContainText("This post waits for a moderator's approval.");
  await gotoHydrated(page, "/notifications");
  await expect(page.getByText(`Your post in "Morning light" waits for a moderator's approval`)).toBeVisible();

  await actAs(page, null);
  await gotoHydrated(page, url);
  await expect(page.getByText(words)).toHaveCount(0);

  const moderator = await joinAs(page, "Pat Approver");
  await makeModerator(moderator.email);
  await gotoHydrated(page, "/review");
  const item = page.getByRole("article").filter({ hasText: "Great mats at" }).filter({ hasText: newcomer.name });
  await expect(item.getByText("Waiting for approval")).toBeVisible();
  await item.getByRole("button", { name: "Approve" }).click();
  await expect(page.getByRole("article").filter({ hasText: "Great mats at" }).filter({ hasText: newcomer.name })).toHaveCount(0);

  await actAs(page, null);
  await gotoHydrated(page, url);
  await expect(page.getByText(words)).toBeVisible();
});

// A member blocks another from their profile: that member's reply is collapsed behind a line that
// opens it, for the one who blocked and the one blocked alike.
test("a member blocks another, whose reply then shows collapsed and opens on demand", async ({ page }) => {
  const loud = await joinAs(page, "Lex Loudly");
  const url = await startDiscussion(page, "Quiet corners", "Where do you sit when the house is loud?");
  const words = `Nobody needs quiet corners ${Date.now()}`;
  await page.getByLabel("Your reply").fill(words);
  await page.getByRole("button", { name: "Post Reply" }).click();
  await expect(page.getByText(words)).toBeVisible();

  await joinAs(page, "Quinn Quiet");
  await gotoHydrated(page, url);
  await page.getByRole("listitem").filter({ hasText: words }).getByRole("link", { name: loud.name }).first().click();
  await expect(page.getByRole("heading", { level: 1, name: loud.name })).toBeVisible();
  await page.getByRole("button", { name: `Block ${loud.name}` }).click();
  await expect(page.getByRole("button", { name: `Unblock ${loud.name}` })).toBeVisible();
  await expectNoSeriousViolations(page);

  await gotoHydrated(page, url);
  const collapsed = page.locator("details.blocked-post").filter({ hasText: "Hidden: you blocked this member." });
  await expect(collapsed).toHaveCount(2);
  await expect(page.getByText(words)).toBeHidden();
  await collapsed.last().getByText("Show the post").click();
  await expect(page.getByText(words)).toBeVisible();
  await expectNoSeriousViolations(page);
});
