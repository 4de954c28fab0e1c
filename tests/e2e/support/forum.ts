import type { Page } from "@playwright/test";
import { expect, gotoHydrated } from "./fixtures";

/**
 * Starts a discussion in Mindful Living (a topic no other spec counts on) as the signed-in member
 * of `page`, through the forms a member uses; returns its URL.
 */
export async function startDiscussion(page: Page, title: string, body: string) {
  await gotoHydrated(page, "/monastery/mindful-living");
  const join = page.getByRole("button", { name: "Join Topic" });
  if (await join.isVisible()) {
    await join.click();
    await expect(page.getByRole("button", { name: "Leave Topic" })).toBeVisible();
  }
  await page.getByRole("link", { name: "Start a Discussion" }).click();
  const main = page.getByRole("main");
  await main.getByLabel("Title").fill(title);
  await main.getByLabel("Your post").fill(body);
  await main.getByRole("button", { name: "Post Discussion" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
  return page.url();
}
