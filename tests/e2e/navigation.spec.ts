import { expect, gotoHydrated, joinAs, test } from "./support/fixtures";

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
  const [tab] = await Promise.all([
    context.waitForEvent("page"),
    nav.getByRole("link", { name: "Forge", exact: true }).click({ modifiers: ["ControlOrMeta"] }),
  ]);
  // The tab opens at about:blank and navigates after: awaited until it reaches the page (as in forum.spec).
  await tab.waitForURL((u) => u.pathname === "/forge");
  await tab.close();
  expect(page.url()).toBe(here);
  expect(await sameDocument()).toBe(true);
});

// Issue 26 item 3: Challenges and Events are in the top bar (from 1,024 px), the mobile menu and the
// account menu, after the seed's links, which keep their order (ADR 0045).
test("Challenges and Events are in the top bar, the mobile menu and the account menu, after the seed's links", async ({ page }) => {
  const nav = page.getByRole("navigation", { name: "Main" });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto("/");
  const shown = await nav
    .getByRole("link")
    .evaluateAll((links) => links.filter((a) => a.getClientRects().length > 0).map((a) => a.textContent!.replace(/\s+/g, " ").trim()));
  expect(shown.slice(1, 8)).toEqual(["Home", "Monastery", "Battlefield", "Forge", "Council", "Challenges", "Events"]);
  await expect(nav.getByRole("link", { name: "Events", exact: true })).toHaveAttribute("href", "/events");

  await page.setViewportSize({ width: 375, height: 800 });
  await gotoHydrated(page, "/");
  await expect(nav.getByRole("link", { name: "Challenges", exact: true })).toBeHidden();
  await page.getByRole("button", { name: "Open menu" }).click();
  const menu = page.locator("#mobile-menu");
  const items = await menu.getByRole("link").allTextContents();
  expect(items).toEqual(["Home", "Monastery", "Battlefield", "Forge", "Council", "Join the Path", "Sign In", "Challenges", "Events"]);
  await menu.getByRole("link", { name: "Challenges", exact: true }).click();
  await expect(page).toHaveURL(/\/challenges$/);

  await joinAs(page, "Nia Navigator");
  await gotoHydrated(page, "/");
  await nav.getByLabel("Account menu for Nia Navigator").click();
  await expect(nav.getByRole("link", { name: "Challenges", exact: true })).toBeVisible();
  await nav.getByRole("link", { name: "Events", exact: true }).click();
  await expect(page).toHaveURL(/\/events$/);
});

test("the brand and the footer's links, kept as the server drew them, still navigate client-side; the canonical link names the document's page only (ADR 0046)", async ({
  page,
}) => {
  const problems: string[] = [];
  page.on("console", (m) => (m.type() === "error" || m.type() === "warning") && problems.push(m.text()));
  page.on("pageerror", (e) => problems.push(String(e)));
  await gotoHydrated(page, "/forge?type=art&utm_source=x");
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", /\/forge\?type=art$/);
  await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
  const sameDocument = () => page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument === true);

  await page.getByRole("contentinfo").getByRole("link", { name: "Our Manifesto", exact: true }).click();
  await expect(page).toHaveURL(/\/manifesto$/);
  expect(await sameDocument()).toBe(true);
  // The document's canonical named /forge: after a client-side navigation it is gone, not wrong.
  await expect(page.locator('link[rel="canonical"]')).toHaveCount(0);

  await page.getByRole("banner").getByRole("link", { name: "Inner Peace. Outer Strength.", exact: true }).click();
  await expect(page).toHaveURL(/\/$/);
  expect(await sameDocument()).toBe(true);
  await page.goBack();
  await page.goBack();
  await expect(page).toHaveURL(/type=art/);
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", /\/forge\?type=art$/);
  expect(problems).toEqual([]);
});
