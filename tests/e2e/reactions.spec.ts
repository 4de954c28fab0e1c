import { actAs, expect, expectNoSeriousViolations, gotoHydrated, joinAs, test } from "./support/fixtures";
import { startDiscussion } from "./support/forum";

// Issue 31's first journey: a brand-new member reacts to a reply in the Monastery and the count
// moves, for them and for a visitor; they see who reacted and take their reaction back.
test("a brand-new member reacts to a reply in the Monastery, the count moves for everyone, and they take it back", async ({ page }) => {
  const author = await joinAs(page, "Rumi Replier");
  const url = await startDiscussion(page, "Lighter steps after sitting", "Ten minutes of sitting, then a slow walk.");
  const words = `Walking after sitting keeps the calm ${Date.now()}.`;
  await page.getByLabel("Your reply").fill(words);
  await page.getByRole("button", { name: "Post Reply" }).click();
  const reply = page.getByRole("listitem").filter({ hasText: words });
  await expect(reply).toBeVisible();
  // Their own reply has no buttons to react with.
  await expect(reply.getByRole("button", { name: "Thanks" })).toHaveCount(0);

  const newcomer = await joinAs(page, "Nell Newcomer");
  await gotoHydrated(page, url);
  const reactions = reply.getByRole("group", { name: "Reactions" });
  const thanks = reactions.getByRole("button", { name: "Thanks" });
  await expect(thanks).toHaveAttribute("aria-pressed", "false");
  await thanks.click();
  await expect(page).toHaveURL(/#reply-\d+$/);
  await expect(reactions.getByRole("button", { name: "Thanks 1" })).toHaveAttribute("aria-pressed", "true");
  await reactions.getByRole("button", { name: "Strength" }).click();
  await expect(reactions.getByRole("button", { name: "Strength 1" })).toHaveAttribute("aria-pressed", "true");
  await expectNoSeriousViolations(page);

  // A visitor sees the counts, and who gave them.
  await actAs(page, null);
  await gotoHydrated(page, url);
  await expect(reactions).toContainText("Thanks1");
  await expect(reactions.getByRole("button")).toHaveCount(0);
  await reactions.getByRole("link", { name: "Who reacted" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Who reacted" })).toBeVisible();
  await expect(page.getByRole("link", { name: newcomer.name, exact: true }).first()).toBeVisible();
  await expectNoSeriousViolations(page);

  // The author is told.
  await actAs(page, author);
  await gotoHydrated(page, "/notifications");
  await expect(page.getByText(`${newcomer.name} reacted to your post in "Lighter steps after sitting"`)).toBeVisible();

  // Taken back, the count goes.
  await actAs(page, newcomer);
  await gotoHydrated(page, url);
  await reactions.getByRole("button", { name: "Thanks 1" }).click();
  await expect(reactions.getByRole("button", { name: "Thanks", exact: true })).toHaveAttribute("aria-pressed", "false");
  await actAs(page, null);
  await gotoHydrated(page, url);
  await expect(reactions).not.toContainText("Thanks");
  await expect(reactions).toContainText("Strength1");
});
