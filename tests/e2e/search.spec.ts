import { makeAdmin } from "./support/database";
import { actAs, expect, expectNoSeriousViolations, gotoHydrated, joinAs, test } from "./support/fixtures";
import { startDiscussion } from "./support/forum";

/** A word no demo text and no other run has: letters only, so both engines' stemmers leave it be. */
function unheardWord() {
  const letters = "bcdfghjklmnpqrstvwxz";
  return `lumen${Array.from({ length: 7 }, () => letters[Math.floor(Math.random() * letters.length)]).join("")}o`;
}

// Issue 30's journey: a post made in the browser is found by a word of its body, an edit by its new
// word, and once a moderator hides it, by nobody but moderators.
test("a discussion is found by its words from the bar's search field, an edit by its new word, and hidden, by moderators alone", async ({ page }) => {
  const first = unheardWord();
  const second = unheardWord();
  const author = await joinAs(page, "Sera Searcher");
  const url = await startDiscussion(page, "Lanterns along the path", `Tonight I lit a ${first} by the window.`);

  // `/` brings the focus to the bar's field; Enter searches.
  // The key's listener loads after hydration (a chunk of its own), so a press that came first is
  // pressed again, as a person would.
  await gotoHydrated(page, "/");
  const field = page.getByRole("searchbox", { name: "Search", exact: true });
  await expect(async () => {
    await page.keyboard.press("/");
    await expect(field).toBeFocused({ timeout: 500 });
  }).toPass();
  await field.fill(first);
  await field.press("Enter");
  await expect(page).toHaveURL(/\/search\?q=lumen/);
  await expect(page.getByRole("heading", { name: `Results for “${first}”` })).toBeVisible();
  await expect(page.locator("mark", { hasText: first })).toBeVisible();
  await expectNoSeriousViolations(page);
  await page.getByRole("link", { name: "Lanterns along the path" }).click();
  await expect(page).toHaveURL(url);

  // The author's edit: found by the new word at once, no longer by the old.
  await page.locator("#post").getByRole("link", { name: "Edit" }).click();
  await page.locator("#post").getByLabel("Your post").fill(`Tonight I lit a ${second} instead.`);
  await page.locator("#post").getByRole("button", { name: "Save Changes" }).click();
  await expect(page.getByText(`Tonight I lit a ${second} instead.`)).toBeVisible();
  await gotoHydrated(page, `/search?q=${second}`);
  await expect(page.getByRole("link", { name: "Lanterns along the path" })).toBeVisible();
  await gotoHydrated(page, `/search?q=${first}`);
  await expect(page.getByText("Nothing found.")).toBeVisible();

  // A moderator hides it: visitors and members find nothing, the moderator finds it, marked hidden.
  const moderator = await joinAs(page, "Mona Moderator");
  await makeAdmin(moderator.email);
  await gotoHydrated(page, url);
  await page.locator("#post").getByRole("button", { name: "Hide" }).click();
  await expect(page.locator("#post").getByRole("button", { name: "Restore" })).toBeVisible();
  await gotoHydrated(page, `/search?q=${second}`);
  const result = page.getByRole("listitem").filter({ has: page.getByRole("link", { name: "Lanterns along the path" }) });
  await expect(result.getByText("Hidden", { exact: true })).toBeVisible();
  for (const who of [author, null]) {
    await actAs(page, who);
    await gotoHydrated(page, `/search?q=${second}`);
    await expect(page.getByText("Nothing found.")).toBeVisible();
  }
});

test("the search page's filters narrow the results and keep the words", async ({ page }) => {
  await gotoHydrated(page, "/search");
  await page.getByLabel("Search for").fill("morning");
  await page.getByLabel("Kind").selectOption({ label: "Discussions" });
  await page.getByLabel("Section").selectOption({ label: "Monastery" });
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await expect(page).toHaveURL(/kind=discussion/);
  await expect(page.getByRole("heading", { name: "Results for “morning”" })).toBeVisible();
  await expect(page.getByLabel("Search for")).toHaveValue("morning");
  const results = page.getByRole("main").getByRole("listitem");
  await expect(results.first()).toBeVisible();
  // Every result is a Monastery discussion.
  for (const place of await results.locator("span").allTextContents()) if (place && !["Discussion", "Hidden"].includes(place)) expect(place).toBe("Monastery");
  await expectNoSeriousViolations(page);
});

test("the members directory finds a member by name, and their profile lists their replies on a tab of its own", async ({ page }) => {
  const name = `Orla ${unheardWord().slice(5, 11)}`;
  await joinAs(page, name);
  const url = await startDiscussion(page, "Notes from the cold lake", "The water was four degrees.");
  await page.getByLabel("Your reply").fill("And the next day, three.");
  await page.getByRole("button", { name: "Post Reply" }).click();
  await expect(page.getByText("And the next day, three.")).toBeVisible();

  await gotoHydrated(page, "/");
  await page.getByRole("contentinfo").getByRole("link", { name: "Members", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Members" })).toBeVisible();
  await page.getByLabel("Name or handle").fill(name);
  await page.getByRole("button", { name: "Find Members" }).click();
  await expect(page).toHaveURL(/\/members\?name=/);
  await expectNoSeriousViolations(page);
  await page.getByRole("link", { name, exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();

  await page.getByRole("link", { name: "Replies (1)" }).click();
  await expect(page).toHaveURL(/\?tab=replies/);
  await expect(page.getByRole("link", { name: "Replies (1)" })).toHaveAttribute("aria-current", "page");
  await page.getByRole("main").getByRole("link", { name: "Notes from the cold lake" }).click();
  await expect(page).toHaveURL(new RegExp(`^${url.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`));
  await expect(page.getByText("And the next day, three.")).toBeVisible();
});

test("a member bookmarks a discussion, keeps a note and a reminder with it, and searches their bookmarks alone", async ({ page }) => {
  const word = unheardWord();
  const member = await joinAs(page, "Kit Keeper");
  const url = await startDiscussion(page, "A breath to come back to", `Box breathing with a ${word} count.`);
  await page.locator("#post").getByRole("button", { name: "Bookmark", exact: true }).click();
  await expect(page.locator("#post").getByRole("button", { name: "Remove Bookmark" })).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`${url.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}#post$`));

  await page.getByLabel(`Account menu for ${member.name}`, { exact: true }).click();
  await page.getByRole("link", { name: "Bookmarks", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Bookmarks" })).toBeVisible();
  const item = page.getByRole("listitem").filter({ has: page.getByRole("link", { name: "A breath to come back to" }) });
  const tomorrow = new Date(Date.now() + 2 * 24 * 3600_000).toISOString().slice(0, 10);
  await item.getByLabel("Note").fill("Try it before Sunday.");
  await item.getByLabel("Remind me on").fill(tomorrow);
  await item.getByRole("button", { name: "Save Note" }).click();
  await expect(item.getByLabel("Note")).toHaveValue("Try it before Sunday.");
  await expect(item.getByLabel("Remind me on")).toHaveValue(tomorrow);
  await expectNoSeriousViolations(page);

  await page.getByRole("link", { name: "Search your bookmarks" }).click();
  await page.getByLabel("Search for").fill(word);
  await expect(page.getByLabel("Only my bookmarks")).toBeChecked();
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await expect(page.getByRole("link", { name: "A breath to come back to" })).toBeVisible();

  await gotoHydrated(page, "/bookmarks");
  await item.getByRole("button", { name: "Remove Bookmark" }).click();
  await expect(page.getByText("No bookmarks yet.")).toBeVisible();
});

test("typing a question's title shows the similar questions already asked", async ({ page }) => {
  await joinAs(page, "Sam Similar");
  await gotoHydrated(page, "/council/ask");
  await page.getByLabel("Title").pressSequentially("How should I keep a routine");
  const similar = page.getByRole("region", { name: "Similar questions already asked" });
  await expect(similar.getByRole("link", { name: "How do I keep a morning routine when my schedule changes every week?" })).toBeVisible();
  await expectNoSeriousViolations(page);
});
