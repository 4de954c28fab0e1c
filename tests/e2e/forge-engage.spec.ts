import { actAs, delayPosts, expect, expectNoSeriousViolations, gotoHydrated, joinAs, test, waitForHydration } from "./support/fixtures";
import { grantXp } from "./support/database";
import { shareCreation, xpOf } from "./support/forge";

/*
 * Issue 10 in the browser: another member likes (with and without JavaScript) and comments on a
 * creation, the counts and the author's XP follow; a member below acolyte is told why there is no
 * like button; the author deletes; the category tiles filter and the list pages by cursor.
 */

const unique = (text: string) => `${text} ${Math.random().toString(36).slice(2, 8)}`;

test("another member likes and comments on a creation; counts and the author's XP follow", async ({ page }) => {
  const author = await joinAs(page, "Aiko Author");
  const fan = await joinAs(page, "Farid Fan");
  await grantXp(fan.email, 60);
  const title = unique("Ink study");
  const id = await shareCreation(author.email, { title, type: "art" });

  await actAs(page, fan);
  await gotoHydrated(page, `/forge/${id}`);
  const main = page.getByRole("main");
  await expect(main.getByRole("heading", { level: 1 })).toHaveText(title);
  const like = main.getByRole("button", { name: "Like", exact: true });
  await expect(like).toHaveAttribute("aria-pressed", "false");
  await expect(main.getByText("0 likes", { exact: true })).toBeVisible();

  // Optimistic: the button and the count change while the post is still on its way.
  await delayPosts(page, `/forge/${id}`);
  await like.click();
  const unlike = main.getByRole("button", { name: "Unlike", exact: true });
  await expect(unlike).toHaveAttribute("aria-pressed", "true");
  await expect(main.getByText("1 like", { exact: true })).toBeVisible();
  await page.unrouteAll({ behavior: "wait" });
  await expect.poll(() => xpOf(author.email)).toBe(1);
  await page.reload();
  await expect(main.getByRole("button", { name: "Unlike", exact: true })).toHaveAttribute("aria-pressed", "true");
  await expect(main.getByText("1 like", { exact: true })).toBeVisible();

  // A comment: refused empty, in the form; posted, counted, edited and deleted by its author.
  await waitForHydration(page);
  await main.getByRole("button", { name: "Post Comment", exact: true }).click();
  await expect(main.getByText("Write something before posting", { exact: true })).toBeVisible();
  await main.getByLabel("Your comment", { exact: true }).fill("The **wash** of grey is lovely.");
  await main.getByRole("button", { name: "Post Comment", exact: true }).click();
  const comments = main.getByRole("region", { name: "Comments" });
  await expect(comments.getByText("The wash of grey is lovely.")).toBeVisible();
  await expect(main.getByText("1 comment", { exact: true })).toBeVisible();

  await comments.getByRole("link", { name: "Edit", exact: true }).click();
  const editor = comments.getByLabel("Your comment", { exact: true });
  await editor.fill("The wash of grey is lovely, and the edges too.");
  await comments.getByRole("button", { name: "Save Changes", exact: true }).click();
  await expect(comments.getByText("The wash of grey is lovely, and the edges too.")).toBeVisible();
  await expect(comments.getByText(/· edited/).first()).toBeVisible();
  await comments.getByText("Delete", { exact: true }).click();
  await comments.getByRole("button", { name: "Yes, delete", exact: true }).click();
  await expect(comments.getByText("[deleted]", { exact: true })).toBeVisible();
  await expect(main.getByText("0 comments", { exact: true })).toBeVisible();

  await expectNoSeriousViolations(page);

  await main.getByRole("button", { name: "Unlike", exact: true }).click();
  await expect(main.getByRole("button", { name: "Like", exact: true })).toHaveAttribute("aria-pressed", "false");
  await expect(main.getByText("0 likes", { exact: true })).toBeVisible();
  await expect.poll(() => xpOf(author.email)).toBe(0);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the like button is a form post", async ({ page }) => {
    const author = await joinAs(page, "Nadia Nojs");
    const fan = await joinAs(page, "Noel Nojs");
    await grantXp(fan.email, 60);
    const id = await shareCreation(author.email, { title: unique("Plain form piece") });
    await actAs(page, fan);
    await page.goto(`/forge/${id}`);
    const main = page.getByRole("main");
    await main.getByRole("button", { name: "Like", exact: true }).click();
    await expect(main.getByRole("button", { name: "Unlike", exact: true })).toHaveAttribute("aria-pressed", "true");
    await expect(main.getByText("1 like", { exact: true })).toBeVisible();
    expect(await xpOf(author.email)).toBe(1);
  });
});

test("an initiate may like from the first day; the author edits or deletes their own", async ({ page }) => {
  const author = await joinAs(page, "Dara Deleter");
  const initiate = await joinAs(page, "Ivo Initiate");
  const title = unique("Short-lived piece");
  const id = await shareCreation(author.email, { title });

  await actAs(page, initiate);
  await page.goto(`/forge/${id}`);
  const main = page.getByRole("main");
  await expect(main.getByText("unlocks at the Acolyte rank")).toHaveCount(0);
  await expect(main.getByRole("button", { name: "Like", exact: true })).toBeVisible();

  await actAs(page, author);
  await gotoHydrated(page, `/forge/${id}`);
  await expect(main.getByRole("button", { name: "Like", exact: true })).toHaveCount(0);
  await expect(main.getByRole("link", { name: "Edit", exact: true })).toHaveAttribute("href", `/forge/${id}/edit`);
  await main.getByText("Delete", { exact: true }).click();
  await main.getByRole("button", { name: "Yes, delete", exact: true }).click();
  await expect(page).toHaveURL("/forge");
  await expect(page.getByRole("link", { name: `View Creation: ${title}`, exact: true })).toHaveCount(0);
  expect((await page.goto(`/forge/${id}`))?.status()).toBe(404);
});

test("the tiles filter with live counts and the list pages newest first by cursor", async ({ page }) => {
  const author = await joinAs(page, "Pax Pager");
  const base = Date.now() + 3_600_000; // newer than anything else in the list
  const titles: string[] = [];
  for (let i = 0; i < 13; i++) {
    const title = unique(`Project ${String(i).padStart(2, "0")}`);
    titles.push(title);
    await shareCreation(author.email, { title, type: "projects", at: new Date(base + i * 1000) });
  }
  await gotoHydrated(page, "/forge");
  const main = page.getByRole("main");
  const tile = main.getByRole("region", { name: "Categories" }).getByRole("link", { name: /^Projects / });
  const countText = await tile.getByText(/\d+ creations?/).textContent();
  const count = Number(countText!.split(" ")[0]);
  expect(count).toBeGreaterThanOrEqual(13);
  await tile.click();
  await expect(page).toHaveURL("/forge?type=projects");
  await expect(tile).toHaveAttribute("aria-current", "page");
  const views = main.getByRole("link", { name: /^View Creation: / });
  await expect(views).toHaveCount(12);
  // Newest first: the last one shared leads.
  await expect(views.first()).toHaveAccessibleName(`View Creation: ${titles[12]}`);
  await main.getByRole("link", { name: "Older creations", exact: true }).click();
  await expect(page).toHaveURL(/\/forge\?type=projects&after=/);
  await expect(main.getByRole("link", { name: `View Creation: ${titles[0]}`, exact: true })).toBeVisible();
  await expect(main.getByRole("link", { name: `View Creation: ${titles[12]}`, exact: true })).toHaveCount(0);
  await main.getByRole("link", { name: "Newer creations", exact: true }).click();
  await expect(views.first()).toHaveAccessibleName(`View Creation: ${titles[12]}`);

  expect((await page.goto("/forge?after=broken"))?.status()).toBe(400);
  expect((await page.goto("/forge?type=sculpture"))?.status()).toBe(200);
});
