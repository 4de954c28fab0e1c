import { jpegWithMetadata } from "../factories/media";
import { expect, expectNoSeriousViolations, gotoHydrated, joinAs, test } from "./support/fixtures";
import { startDiscussion } from "./support/forum";

// Issue 32's avatars (ADR 0072): a member uploads a picture in the settings, sees it beside their
// reply (loaded from this site) and in their header, then removes it and gets their initials back.
test("a member uploads a profile picture that shows on their replies, then removes it", async ({ page }) => {
  const member = await joinAs(page, "Pia Portrait");
  const url = await startDiscussion(page, "Faces of practice", "What does your practice look like?");
  const run = Date.now().toString(36);
  await page.getByLabel("Your reply").fill(`A quiet corner and a cushion (${run}).`);
  await page.getByRole("button", { name: "Post Reply" }).click();
  const reply = page.locator("li", { hasText: run });
  await expect(reply).toBeVisible();
  await expect(reply.locator('[data-slot="byline"] [data-slot="avatar"]')).toHaveText("PP");

  await gotoHydrated(page, "/settings");
  const card = page.getByRole("main").locator('[data-slot="card"]', { has: page.getByRole("heading", { name: "Profile picture" }) });
  await expect(card.getByRole("button", { name: "Remove picture" })).toHaveCount(0);
  await card.getByLabel("Profile picture", { exact: true }).setInputFiles({ name: "me.jpg", mimeType: "image/jpeg", buffer: await jpegWithMetadata(900, 600) });
  await card.getByRole("button", { name: "Upload picture" }).click();
  await expect(card.getByRole("status")).toHaveText("Your picture is saved.");
  await expect(card.locator('img[data-slot="avatar"]')).toHaveAttribute("src", /^\/media\/[0-9a-f]{32}-avatar96\.webp$/);
  // The header's account menu shows it too.
  await expect(page.locator(`summary[aria-label="Account menu for ${member.name}"] img`)).toHaveAttribute("src", /avatar48\.webp$/);
  await expectNoSeriousViolations(page);

  await gotoHydrated(page, url);
  const picture = reply.locator('[data-slot="byline"] img[data-slot="avatar"]');
  await picture.scrollIntoViewIfNeeded();
  await expect(picture).toHaveAttribute("src", /^\/media\/[0-9a-f]{32}-avatar48\.webp$/);
  await expect(picture).toHaveAttribute("srcset", /^\/media\/[0-9a-f]{32}-avatar96\.webp 2x$/);
  await expect(picture).toHaveAttribute("alt", "");
  // Loaded, from whichever size the browser chose for its pixel density.
  await expect.poll(() => picture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
  expect(await picture.evaluate((img: HTMLImageElement) => new URL(img.currentSrc).pathname)).toMatch(/^\/media\/[0-9a-f]{32}-avatar(48|96)\.webp$/);

  await gotoHydrated(page, "/settings");
  await card.getByRole("button", { name: "Remove picture" }).click();
  await expect(card.getByRole("status")).toHaveText("Your picture is removed.");
  await expect(card.locator('img[data-slot="avatar"]')).toHaveCount(0);
  await gotoHydrated(page, url);
  await expect(reply.locator('[data-slot="byline"] [data-slot="avatar"]')).toHaveText("PP");
});

test("a file that is no image is answered on the field, and the initials stay", async ({ page }) => {
  await joinAs(page, "Quin Refused");
  await gotoHydrated(page, "/settings");
  const input = page.getByLabel("Profile picture", { exact: true });
  await input.setInputFiles({ name: "notes.png", mimeType: "image/png", buffer: Buffer.from("these are words, not pixels") });
  await page.getByRole("button", { name: "Upload picture" }).click();
  await expect(page.locator("#avatar-error")).toHaveText("Choose a PNG, JPEG, WebP or GIF image.");
  await expect(input).toHaveAttribute("aria-invalid", "true");
  await expect(input).toHaveAttribute("aria-describedby", /avatar-error/);
  await expect(page.getByRole("button", { name: "Remove picture" })).toHaveCount(0);
});
