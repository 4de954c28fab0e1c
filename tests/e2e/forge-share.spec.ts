import type { Page } from "@playwright/test";
import { png, wav } from "../factories/media";
import { grantXp } from "./support/database";
import { createMember, delayPosts, expect, expectNoSeriousViolations, gotoHydrated, newMember, test } from "./support/fixtures";

/*
 * Issue 10, sharing: a member shares one creation of each type from the browser (with JavaScript:
 * type-dependent fields, image preview, upload progress) and one without JavaScript; a signed-out
 * visitor is sent to sign in and back. The files are made in the test.
 */

function uniqueTitle(text: string) {
  return `${text} ${Math.random().toString(36).slice(2, 8)}`;
}

async function signedIn(page: Page) {
  const member = newMember("Forge Sharer");
  await createMember(page.request, member);
  // Past the initiate's three posts a day: this journey shares five.
  await grantXp(member.email, 60);
  return member;
}

async function fillText(page: Page, title: string, type: string) {
  const main = page.getByRole("main");
  await main.getByLabel("Title", { exact: true }).fill(title);
  await main.getByLabel("Description", { exact: true }).fill("Made on the path.");
  await main.getByLabel("Type", { exact: true }).selectOption({ label: type });
  await main.getByLabel("Your work", { exact: true }).fill("Forged with **patience**.");
}

async function share(page: Page) {
  await page.getByRole("button", { name: "Share Creation", exact: true }).click();
  await page.waitForURL(/\/forge\/\d+$/);
}

test.describe("sharing a creation", () => {
  test("a signed-out visitor is sent to sign in and back", async ({ page }) => {
    await page.goto("/forge/new");
    await expect(page).toHaveURL(/\/signin\?redirectTo=%2Fforge%2Fnew$/);
  });

  test("a member shares Writing, Visual Art, Music and a Project with JavaScript", async ({ page }) => {
    await signedIn(page);
    const main = page.getByRole("main");

    await gotoHydrated(page, "/forge/new");
    await expect(page.getByRole("heading", { name: "Share Your Creation", level: 1 })).toBeVisible();
    // Only the chosen type's fields show.
    await expect(main.getByLabel("Image", { exact: true })).toHaveCount(0);
    const writing = uniqueTitle("Morning pages");
    await fillText(page, writing, "Writing");
    await share(page);
    await expect(page.getByRole("heading", { name: writing, level: 1 })).toBeVisible();
    await expect(page.getByText("Writing", { exact: true }).first()).toBeVisible();

    await gotoHydrated(page, "/forge/new");
    const art = uniqueTitle("Ink study");
    await fillText(page, art, "Visual Art");
    await main.getByLabel("Image", { exact: true }).setInputFiles({ name: "ink.png", mimeType: "image/png", buffer: await png(800, 600) });
    await expect(main.getByRole("img", { name: "Preview of the chosen image" })).toBeVisible();
    // The progress bar shows while the file goes up (the post is held a moment so it can be seen).
    await delayPosts(page, "/forge/new");
    await page.getByRole("button", { name: "Share Creation", exact: true }).click();
    await expect(main.getByRole("progressbar")).toBeVisible();
    await page.waitForURL(/\/forge\/\d+$/);
    await page.unrouteAll();
    await expect(page.getByRole("heading", { name: art, level: 1 })).toBeVisible();
    // The creation page shows the display size and links the full image, both from /media.
    await expect(main.getByRole("img", { name: "Made on the path." })).toHaveAttribute("src", /^\/media\/[0-9a-f]{32}-display\.webp$/);
    await expect(main.getByRole("link", { name: "View full size" })).toHaveAttribute("href", /^\/media\/[0-9a-f]{32}-full\.webp$/);
    // The author's edit form shows the current image too.
    await page.goto(`${new URL(page.url()).pathname}/edit`);
    const src = await main.getByRole("img", { name: "The current image" }).getAttribute("src");
    expect(src).toMatch(/^\/media\/[0-9a-f]{32}-display\.webp$/);
    const served = await page.request.get(src!);
    expect(served.headers()["content-type"]).toBe("image/webp");
    expect((await served.body()).length).toBeGreaterThan(0);

    await gotoHydrated(page, "/forge/new");
    const music = uniqueTitle("Bell and breath");
    await fillText(page, music, "Music");
    await main.getByLabel("Audio file", { exact: true }).setInputFiles({ name: "bell.wav", mimeType: "audio/wav", buffer: wav() });
    await share(page);
    await expect(page.getByRole("heading", { name: music, level: 1 })).toBeVisible();
    await expect(page.locator("main audio")).toHaveAttribute("src", /^\/media\/[0-9a-f]{32}\.wav$/);
    // The page's player reads the stored file's quarter second (its fetch says Sec-Fetch-Dest: audio, ADR 0044).
    await expect.poll(() => page.locator("main audio").evaluate((audio: HTMLAudioElement) => audio.duration)).toBeCloseTo(0.25, 2);

    await gotoHydrated(page, "/forge/new");
    const project = uniqueTitle("Garage dojo");
    await fillText(page, project, "Projects");
    await main.getByLabel("Project link", { exact: true }).fill("javascript:alert(1)");
    await page.getByRole("button", { name: "Share Creation", exact: true }).click();
    await expect(page.getByText("The link must start with http:// or https://", { exact: true })).toBeVisible();
    await main.getByLabel("Project link", { exact: true }).fill("https://example.org/garage-dojo");
    await share(page);
    await expect(page.getByRole("heading", { name: project, level: 1 })).toBeVisible();
    await expect(page.getByRole("link", { name: /Visit the project/ })).toHaveAttribute("href", "https://example.org/garage-dojo");
  });

  test("the file field looks like a control: a focusable button, the chosen name, a preview or a clear message, at 375 and 1280 px", async ({ page }) => {
    await signedIn(page);
    const main = page.getByRole("main");
    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await gotoHydrated(page, "/forge/new");
      await main.getByLabel("Type", { exact: true }).selectOption({ label: "Visual Art" });
      const image = main.getByLabel("Image", { exact: true });
      const button = main.locator("label", { hasText: "Choose an image" });
      await expect(button).toBeVisible();
      await expect(main.getByText("No file chosen", { exact: true })).toBeVisible();
      // Reached by the keyboard after "Your work" and its help's "Markdown guide" link; its focus is drawn around the button.
      await main.getByRole("link", { name: "Markdown guide" }).focus();
      await page.keyboard.press("Tab");
      await expect(image).toBeFocused();
      expect(await button.evaluate((el) => getComputedStyle(el).outlineStyle)).not.toBe("none");

      await image.setInputFiles({ name: "ink-study.png", mimeType: "image/png", buffer: await png(1600, 900) });
      await expect(main.getByText("ink-study.png", { exact: true })).toBeVisible();
      const preview = main.getByRole("img", { name: "Preview of the chosen image" });
      await expect(preview).toBeVisible();
      expect(await preview.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1600);
      // Nothing wider than the screen, the preview included.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);

      // A file named like an image that the browser cannot show: a sentence, no broken image.
      await image.setInputFiles({ name: "notes.png", mimeType: "image/png", buffer: Buffer.from("just some words, not pixels") });
      await expect(main.getByText("notes.png", { exact: true })).toBeVisible();
      await expect(main.getByText("This file is not an image we can show.", { exact: true })).toBeVisible();
      await expect(main.locator("[data-slot=file-field] img")).toHaveCount(0);

      await main.getByLabel("Type", { exact: true }).selectOption({ label: "Music" });
      await main.getByLabel("Audio file", { exact: true }).setInputFiles({ name: "bell.wav", mimeType: "audio/wav", buffer: wav() });
      await expect(main.getByText("bell.wav", { exact: true })).toBeVisible();
    }
    await expectNoSeriousViolations(page);
  });

  test("the server's refusal of a file shows on the form, with JavaScript", async ({ page }) => {
    await signedIn(page);
    await gotoHydrated(page, "/forge/new");
    await fillText(page, uniqueTitle("Not an image"), "Visual Art");
    await page
      .getByRole("main")
      .getByLabel("Image", { exact: true })
      .setInputFiles({ name: "page.png", mimeType: "image/png", buffer: Buffer.from("<!doctype html><script>alert(1)</script>") });
    await page.getByRole("button", { name: "Share Creation", exact: true }).click();
    await expect(page.getByText("Choose a PNG, JPEG, WebP or GIF image.", { exact: true })).toBeVisible();
    await expect(page).toHaveURL(/\/forge\/new$/);
    await expectNoSeriousViolations(page);
  });

  test.describe("without JavaScript", () => {
    test.use({ javaScriptEnabled: false });

    test("a member shares Visual Art with a plain form post", async ({ page }) => {
      await signedIn(page);
      await page.goto("/forge/new");
      const main = page.getByRole("main");
      const title = uniqueTitle("Quiet brush");
      await main.getByLabel("Title", { exact: true }).fill(title);
      await main.getByLabel("Type", { exact: true }).selectOption({ label: "Visual Art" });
      await main.getByLabel("Your work", { exact: true }).fill("Without scripts.");
      await main.getByLabel("Image (Visual Art)", { exact: true }).setInputFiles({ name: "brush.png", mimeType: "image/png", buffer: await png(300, 200) });
      await page.getByRole("button", { name: "Share Creation", exact: true }).click();
      await page.waitForURL(/\/forge\/\d+$/);
      await expect(page.getByRole("heading", { name: title, level: 1 })).toBeVisible();
    });
  });
});
