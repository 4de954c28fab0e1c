import { expect, gotoHydrated, test } from "./support/fixtures";

// The site's links are plain <a> elements that one handler on the document navigates client-side
// (ADR 0035). What <Link> and <NavLink> did must still hold: a plain click keeps the document, the
// history works, the navigation bar marks the page shown, and a modified click is the browser's.
test("site links navigate client-side, mark the page shown and leave a modified click to the browser", async ({ page, context }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await gotoHydrated(page, "/");
  const nav = page.getByRole("navigation", { name: "Main" });
  await expect(nav.getByRole("link", { name: "Home", exact: true })).toHaveAttribute("aria-current", "page");
  await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
  const sameDocument = () => page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument === true);

  await nav.getByRole("link", { name: "Council", exact: true }).click();
  await expect(page).toHaveURL(/\/council$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("The Council");
  expect(await sameDocument()).toBe(true);
  await expect(nav.getByRole("link", { name: "Council", exact: true })).toHaveAttribute("aria-current", "page");
  await expect(nav.getByRole("link", { name: "Home", exact: true })).not.toHaveAttribute("aria-current", "page");

  // A page below a section keeps the section marked; "Home" is marked on "/" alone.
  await page.goBack();
  await expect(page).toHaveURL(/\/$/);
  expect(await sameDocument()).toBe(true);
  await page.getByRole("link", { name: "Enter The Monastery" }).click();
  await expect(page).toHaveURL(/\/monastery$/);
  const topic = page.getByRole("link", { name: /^Explore / }).first();
  await topic.click();
  await expect(page).toHaveURL(/\/monastery\/[^/]+$/);
  await expect(nav.getByRole("link", { name: "Monastery", exact: true })).toHaveAttribute("aria-current", "page");
  expect(await sameDocument()).toBe(true);

  // Ctrl or Cmd and click opens a new tab; this page stays where it is.
  const here = page.url();
  const [tab] = await Promise.all([context.waitForEvent("page"), nav.getByRole("link", { name: "Forge", exact: true }).click({ modifiers: ["ControlOrMeta"] })]);
  await tab.waitForLoadState();
  expect(new URL(tab.url()).pathname).toBe("/forge");
  await tab.close();
  expect(page.url()).toBe(here);
  expect(await sameDocument()).toBe(true);
});
