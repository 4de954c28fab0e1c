import sharp from "sharp";
import { COMMENT_MARK, GPS_MARK, jpegWithMetadata, XMP_MARK } from "../factories/media";
import { backdateReply } from "./support/backdate";
import { actAs, expect, expectNoSeriousViolations, gotoHydrated, joinAs, test } from "./support/fixtures";
import { startDiscussion } from "./support/forum";

// Issue 32's edit history: a member edits a reply some minutes after posting it, and a visitor opens
// "edited" on it and reads the words the edit removed and added.
test("a member edits a reply after the grace period and a visitor reads the diff from its 'edited' link", async ({ page }) => {
  await joinAs(page, "Hal Historian");
  const url = await startDiscussion(page, "Counting breaths", "How far do you count before you lose track?");
  const run = Date.now().toString(36);
  await page.getByLabel("Your reply").fill(`I reach seven on a calm morning (${run}).`);
  await page.getByRole("button", { name: "Post Reply" }).click();
  const card = page.locator("li", { hasText: run });
  await expect(card).toBeVisible();
  const replyId = Number((await card.getAttribute("id"))?.replace("reply-", ""));
  expect(replyId).toBeGreaterThan(0);
  // Posted ten minutes ago, as far as the grace period is concerned.
  await backdateReply(replyId, 10);

  await gotoHydrated(page, url);
  await card.getByRole("link", { name: "Edit" }).click();
  await card.getByLabel("Your reply").fill(`I reach ten on a calm morning (${run}).`);
  await card.getByRole("button", { name: "Save Changes" }).click();
  await expect(page.locator("li", { hasText: "I reach ten" }).getByRole("link", { name: "edited" })).toBeVisible();

  await actAs(page, null);
  await gotoHydrated(page, url);
  await page.locator("li", { hasText: "I reach ten" }).getByRole("link", { name: "edited" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Edit History" })).toBeVisible();
  await expect(page.locator(".diff del")).toHaveText("seven");
  await expect(page.locator(".diff ins")).toHaveText("ten");
  await expectNoSeriousViolations(page);
  await page.getByRole("link", { name: "Back to the post" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Counting breaths" })).toBeVisible();
});

// Issue 32's preview: a member writes Markdown, makes a word bold with the shortcut, opens Preview and
// reads it as it will be posted, goes back to Write and posts it.
test("a member previews a reply rendered by the server, with the bold shortcut, then posts it", async ({ page }) => {
  await joinAs(page, "Pim Previewer");
  const url = await startDiscussion(page, "Morning pages", "Three pages, first thing.");
  await gotoHydrated(page, url);
  const box = page.getByLabel("Your reply");
  const run = Date.now().toString(36);
  await box.fill(`Write without stopping (${run}). `);
  await box.press("End");
  await box.press("ControlOrMeta+b");
  await expect(box).toHaveValue(`Write without stopping (${run}). **bold**`);
  await box.press("ControlOrMeta+a");
  await box.fill(`Write **without** stopping (${run}).`);

  await page.getByRole("tab", { name: "Preview" }).click();
  const preview = page.getByRole("tabpanel");
  await expect(preview.locator("strong")).toHaveText("without");
  await expect(box).toBeHidden();
  await expectNoSeriousViolations(page);
  await page.getByRole("tab", { name: "Write" }).click();
  await expect(box).toBeVisible();
  await expect(box).toBeFocused();
  await page.getByRole("button", { name: "Post Reply" }).click();
  await expect(page.locator("li", { hasText: run }).locator("strong")).toHaveText("without");
  await expect(page.getByRole("link", { name: "Markdown guide" }).first()).toHaveAttribute("href", "/markdown");
});

// Issue 32's quotes: a member selects a few words of another's reply and quotes just them, and their
// reply then says whom it answers, with a link that jumps to it.
test("a member quotes the words they selected in a reply, and their reply says 'in reply to' with a link back", async ({ page }) => {
  const omar = await joinAs(page, "Omar Quoted");
  const url = await startDiscussion(page, "Cold mornings", "How do you get up when it is dark?");
  const run = Date.now().toString(36);
  await page.getByLabel("Your reply").fill(`Lay out your clothes the night before. Then the alarm goes across the room (${run}).`);
  await page.getByRole("button", { name: "Post Reply" }).click();
  const card = page.locator("li[id^=reply-]", { hasText: run });
  await expect(card).toBeVisible();

  await joinAs(page, "Quinn Quoting");
  await gotoHydrated(page, url);
  // Select "Lay out your clothes the night before." in Omar's reply, then Quote.
  await card.locator(".prose-member p").evaluate((p) => {
    const text = p.firstChild!;
    const range = document.createRange();
    range.setStart(text, 0);
    range.setEnd(text, "Lay out your clothes the night before.".length);
    const selection = window.getSelection()!;
    selection.removeAllRanges();
    selection.addRange(range);
  });
  await card.getByRole("link", { name: "Quote", exact: true }).click();
  const box = page.getByLabel("Your reply");
  await expect(box).toHaveValue(/^> Lay out your clothes the night before\.\n>\n> — \[Omar Quoted\]\(.+#reply-\d+\)\n\n$/);
  await expect(page.getByText("Replying to Omar Quoted")).toBeVisible();
  await box.press("End");
  await box.pressSequentially(`I do that too (${run}-answer).`);
  await page.getByRole("button", { name: "Post Reply" }).click();
  const answer = page.locator("li[id^=reply-]", { hasText: `${run}-answer` });
  await expect(answer.locator("blockquote")).toContainText("Lay out your clothes the night before.");
  await answer.getByRole("link", { name: omar.name }).first().click();
  await expect(page).toHaveURL(new RegExp(`#reply-\\d+$`));
});

// Issue 32's drafts: a half-written reply comes back after the tab is closed, in this browser and on
// another one, and is on the dashboard until it is posted.
test("a half-written reply survives a closed tab, comes back on another browser, and leaves the dashboard once posted", async ({ page, browser }) => {
  const writer = await joinAs(page, "Dara Drafting");
  const url = await startDiscussion(page, "Sleep and strength", "Does sleep count as training?");
  await gotoHydrated(page, url);
  const run = Date.now().toString(36);
  const words = `Eight hours is part of the plan (${run})`;
  // The box's tools (which keep the draft) load after the page is interactive: typed before, a
  // change would go unseen.
  await expect(page.getByRole("tab", { name: "Preview" })).toBeVisible();
  const saved = page.waitForResponse((r) => r.url().endsWith("/drafts") && r.request().method() === "POST" && r.ok());
  await page.getByLabel("Your reply").fill(words);
  await saved;

  // The tab closes; a new one opens the discussion again.
  await page.close();
  const again = await page.context().newPage();
  // (A page of its own, without the fixture's hydration hook: the restored text is what is awaited.)
  await again.goto(url);
  await expect(again.getByLabel("Your reply")).toHaveValue(words);
  await expect(again.getByRole("status").filter({ hasText: "is back in the box" })).toBeVisible();
  // Another member signed in on this browser does not get it.
  await joinAs(again, "Sam Stranger");
  await again.goto(url);
  await expect(again.getByRole("tab", { name: "Preview" })).toBeVisible();
  await expect(again.getByLabel("Your reply")).toHaveValue("");

  // Another browser (no local copy): the server's draft.
  const elsewhere = await browser.newContext();
  await elsewhere.addCookies(writer.cookies);
  const other = await elsewhere.newPage();
  await other.goto("/dashboard");
  await other.getByRole("link", { name: "Reply in Sleep and strength" }).click();
  await expect(other.getByLabel("Your reply")).toHaveValue(words);
  await other.getByRole("button", { name: "Post Reply" }).click();
  await expect(other.locator("li[id^=reply-]", { hasText: run })).toBeVisible();
  await other.goto("/dashboard");
  await expect(other.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(other.getByRole("link", { name: "Reply in Sleep and strength" })).toHaveCount(0);
  await elsewhere.close();
});

// Issue 32's pictures in posts: a member pastes a photo into a reply; it is uploaded at once, the
// reply shows it at its size with the camera's metadata gone; a file that is no image is refused
// in words by the Add image button.
test("a member pastes a photo into a reply and it shows at its size, without its metadata", async ({ page }) => {
  await joinAs(page, "Gus Gardener");
  const url = await startDiscussion(page, "Gardens as practice", "Weeding as a meditation.");
  await gotoHydrated(page, url);
  const box = page.getByLabel("Your reply");
  await expect(page.getByRole("button", { name: "Add image" })).toBeVisible();
  const run = Date.now().toString(36);
  await box.fill(`My rows this morning (${run}).\n\n`);
  await box.press("End");

  const photo = await jpegWithMetadata(1200, 900);
  const uploaded = page.waitForResponse((r) => r.url().endsWith("/uploads/images") && r.status() === 201);
  await box.evaluate((area, base64) => {
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    const clipboard = new DataTransfer();
    clipboard.items.add(new File([bytes], "garden.jpg", { type: "image/jpeg" }));
    area.dispatchEvent(new ClipboardEvent("paste", { clipboardData: clipboard, bubbles: true, cancelable: true }));
  }, photo.toString("base64"));
  await uploaded;
  await expect(box).toHaveValue(new RegExp(`\\(${run}\\)\\.\\n\\n!\\[garden\\|1200x900\\]\\(/media/[0-9a-f]{32}-display\\.webp\\)\\n`));
  await expect(page.getByRole("status").filter({ hasText: "garden.jpg is added." })).toBeVisible();

  await page.getByRole("button", { name: "Post Reply" }).click();
  const picture = page.locator("li[id^=reply-]", { hasText: run }).getByRole("img", { name: "garden" });
  await expect(picture).toHaveAttribute("width", "1200");
  await expect(picture).toHaveAttribute("height", "900");
  await expect(picture).toHaveAttribute("loading", "lazy");
  await picture.scrollIntoViewIfNeeded();
  await expect.poll(() => picture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1200);
  const served = await page.request.get((await picture.getAttribute("src"))!);
  expect(served.headers()["content-type"]).toBe("image/webp");
  const bytes = await served.body();
  const meta = await sharp(bytes).metadata();
  expect([meta.width, meta.height, meta.exif, meta.xmp]).toEqual([1200, 900, undefined, undefined]);
  for (const mark of [GPS_MARK, XMP_MARK, COMMENT_MARK, "SecretCam"]) expect(bytes.includes(mark)).toBe(false);

  // The button takes files too; one that is no image is refused by its bytes, in words.
  await gotoHydrated(page, url);
  const chooser = page.waitForEvent("filechooser");
  await page.getByRole("button", { name: "Add image" }).click();
  await (await chooser).setFiles({ name: "notes.png", mimeType: "image/png", buffer: Buffer.from("not a picture at all") });
  await expect(page.getByRole("alert").filter({ hasText: "Choose a PNG, JPEG, WebP or GIF image." })).toBeVisible();
  await expect(box).toHaveValue("");
  await expectNoSeriousViolations(page);
});
