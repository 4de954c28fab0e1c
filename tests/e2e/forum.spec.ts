import { createMember, expect, gotoHydrated, newMember, test } from "./support/fixtures";

// Issue 3's journey: find a topic, join it, start a discussion, get a reply from another member,
// edit and delete, all in the browser.
test("a member joins a topic, starts a discussion, another replies, the author edits and deletes", async ({ page, browser }) => {
  const author = await createMember(page.request, newMember("Tara Author"));

  await gotoHydrated(page, "/monastery");
  await page.getByRole("link", { name: "Explore Journaling Practice", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Journaling Practice");
  const members = page.getByText(/· \d+ members/);
  const before = Number((await members.textContent())!.match(/(\d+) members/)![1]);
  await page.getByRole("button", { name: "Join Topic" }).click();
  await expect(page.getByRole("button", { name: "Leave Topic" })).toBeVisible();
  await expect(page.getByText(`· ${before + 1} members`, { exact: false })).toBeVisible();

  await page.getByRole("link", { name: "Start a Discussion" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Start a Discussion");
  const main = page.getByRole("main");
  // Validation on submit, then on each change, as on the join form.
  await main.getByLabel("Title").fill("Short");
  await main.getByRole("button", { name: "Post Discussion" }).click();
  await expect(main.getByText("Title must be at least 8 characters")).toBeVisible();
  await expect(main.getByText("Write something before posting")).toBeVisible();
  await main.getByLabel("Title").fill("Morning pages, three weeks in");
  await expect(main.getByText("Title must be at least 8 characters")).toBeHidden();
  await main.getByLabel("Your post").fill("Three pages every morning. *Some days* it is only complaints.");
  await main.getByRole("button", { name: "Post Discussion" }).click();

  await expect(page).toHaveURL(/\/monastery\/journaling-practice\/\d+-morning-pages-three-weeks-in$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Morning pages, three weeks in");
  await expect(page.locator("em", { hasText: "Some days" })).toBeVisible();
  const discussionUrl = page.url();

  // Another member replies from their own browser.
  const other = await browser.newContext();
  const otherPage = await other.newPage();
  await createMember(otherPage.request, newMember("Rui Replier"));
  await otherPage.goto(discussionUrl);
  await otherPage.getByLabel("Your reply").fill("Complaints on paper are fewer complaints in the day.");
  await otherPage.getByRole("button", { name: "Post Reply" }).click();
  await expect(otherPage.getByText("Complaints on paper are fewer complaints in the day.")).toBeVisible();
  await expect(otherPage.getByRole("heading", { name: "1 Reply" })).toBeVisible();
  // Not theirs: no Edit on the opening post.
  await expect(otherPage.locator("#post").getByRole("link", { name: "Edit" })).toHaveCount(0);
  await other.close();

  // The author edits: the post is marked "edited".
  await gotoHydrated(page, discussionUrl);
  await expect(page.getByText("Complaints on paper are fewer complaints in the day.")).toBeVisible();
  await page.locator("#post").getByRole("link", { name: "Edit" }).click();
  // The link gave way to the form: focus goes into it, not to <body>.
  await expect(page.locator("#post").getByLabel("Your post")).toBeFocused({ timeout: 15_000 });
  await page.locator("#post").getByLabel("Your post").fill("Three pages every morning. Now mostly gratitude.");
  await page.locator("#post").getByRole("button", { name: "Save Changes" }).click();
  await expect(page.getByText("Now mostly gratitude.")).toBeVisible();
  await expect(page.locator("#post").getByText(/· edited/)).toBeVisible();

  // Escape takes the question back and returns focus to "Delete".
  const deleteToggle = page.locator("#post").getByText("Delete", { exact: true });
  await deleteToggle.click();
  await page.locator("#post").getByRole("button", { name: "Yes, delete" }).focus();
  await page.keyboard.press("Escape");
  await expect(page.locator("#post").getByRole("button", { name: "Yes, delete" })).toBeHidden();
  await expect(deleteToggle).toBeFocused();

  // …and deletes: the text becomes [deleted], the thread stays readable.
  await deleteToggle.click();
  await page.locator("#post").getByRole("button", { name: "Yes, delete" }).click();
  await expect(page.locator("#post").getByText("[deleted]")).toBeVisible();
  await expect(page.getByText("Complaints on paper are fewer complaints in the day.")).toBeVisible();
  expect(author.name).toBe("Tara Author");
});

test("a visitor is asked to sign in to reply and comes back to the discussion", async ({ page, request }) => {
  // Joined through the standalone request context: this browser stays signed out.
  const member = await createMember(request, newMember("Back Again"));
  await gotoHydrated(page, "/battlefield/strength-training");
  await page.getByRole("link", { name: "Form over weight: a deadlift checklist" }).click();
  await expect(page).toHaveURL(/\/battlefield\/strength-training\/\d+-form-over-weight-a-deadlift-checklist$/);
  const url = page.url();
  await page.getByRole("link", { name: "Sign in to reply" }).click();
  await expect(page).toHaveURL(/\/signin\?redirectTo=/);
  const main = page.getByRole("main");
  await main.getByLabel("Email", { exact: true }).fill(member.email);
  await main.getByLabel("Password", { exact: true }).fill(member.password);
  await main.getByRole("button", { name: "Sign In", exact: true }).click();
  await expect(page).toHaveURL(url);
  await expect(page.getByLabel("Your reply")).toBeVisible();
});

// Reply cards are markup the server renders once per version of a reply (ADR 0032): an edit must show
// at once, and their plain profile links must still navigate client-side, leaving modified clicks
// (a new tab) to the browser.
test("a reply's card shows its edit, and its author link navigates client-side but a modified click does not", async ({ page, context }) => {
  const replier = await createMember(page.request, newMember("Ines Cardwright"));
  await gotoHydrated(page, "/monastery/journaling-practice");
  await page.getByRole("link", { name: "Three questions for the evening review" }).click();
  await expect(page).toHaveURL(/\/monastery\/journaling-practice\/\d+-three-questions-for-the-evening-review$/);
  const discussionUrl = page.url();
  // Words of this run only: a retry finds its own reply, not the one the failed attempt left.
  const run = Date.now().toString(36);
  const first = `The first question is the hardest to answer honestly (${run}).`;
  const second = `The second question is the hardest, it turns out (${run}).`;
  await page.getByLabel("Your reply").fill(first);
  await page.getByRole("button", { name: "Post Reply" }).click();
  const card = page.locator("li", { hasText: first });
  await expect(card).toBeVisible();

  await card.getByRole("link", { name: "Edit" }).click();
  await card.getByLabel("Your reply").fill(second);
  await card.getByRole("button", { name: "Save Changes" }).click();
  const edited = page.locator("li", { hasText: second });
  await expect(edited.getByText(/· edited/)).toBeVisible();
  await expect(page.getByText(first)).toHaveCount(0);
  // A new document shows the edit too (the markup held on the server is the edited reply's), and
  // hydrates without complaint (the cards' markup is read back from the document).
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(error.message));
  await gotoHydrated(page, discussionUrl);
  await expect(edited.getByText(/· edited/)).toBeVisible();
  await expect(page.getByText(first)).toHaveCount(0);
  expect(errors).toEqual([]);

  // A modified click opens the profile in a new tab; this page stays where it is.
  const authorLink = edited.getByRole("link", { name: new RegExp(replier.name) });
  const [tab] = await Promise.all([context.waitForEvent("page"), authorLink.click({ modifiers: ["ControlOrMeta"] })]);
  // The new tab starts at about:blank; its navigation to the profile comes after.
  await tab.waitForURL(/\/members\/[a-z0-9-]+$/);
  await tab.close();
  expect(page.url()).toBe(discussionUrl);

  // A plain click navigates without loading a new document: the window keeps its state.
  await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
  await authorLink.click();
  await expect(page).toHaveURL(/\/members\/[a-z0-9-]+$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(replier.name);
  expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
});
