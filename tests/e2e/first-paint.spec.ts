import type { Page } from "@playwright/test";
import { createMember, expect, test, waitForHydration } from "./support/fixtures";

/*
 * ADR 0033: a page paints from its HTML and inline CSS before any script is requested; React
 * Router's scripts start after the first contentful paint and still hydrate the page. Both kinds of
 * CSP are covered: a visitor's cached page names its inline scripts by hash (ADR 0026), a member's
 * page by nonce.
 */

/** Start times (ms since navigation) of the first contentful paint and of every script fetched. */
async function paintAndScripts(page: Page) {
  return page.evaluate(() => {
    const fcp = performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? null;
    const scripts = (performance.getEntriesByType("resource") as PerformanceResourceTiming[])
      .filter((entry) => new URL(entry.name).pathname.endsWith(".js"))
      .map((entry) => ({ path: new URL(entry.name).pathname, startTime: entry.startTime }));
    return { fcp, scripts };
  });
}

async function expectScriptsAfterFirstPaint(page: Page, path: string) {
  const refused: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" && /Content Security Policy/i.test(message.text())) refused.push(message.text());
  });
  const response = await page.goto(path);
  const html = await response!.text();
  // The document itself asks for no module: its preloads and module script wait in the holder.
  const outsideHolder = html.replace(/<noscript id="rr-scripts">[\s\S]*?<\/noscript>/, "");
  expect(outsideHolder).not.toMatch(/<link[^>]+modulepreload/);
  expect(outsideHolder).not.toMatch(/<script[^>]+type="module"/);

  await waitForHydration(page);
  const { fcp, scripts } = await paintAndScripts(page);
  expect(fcp, "the page has a first contentful paint").not.toBeNull();
  expect(scripts.length, "the client entry and route modules loaded").toBeGreaterThan(3);
  const early = scripts.filter((s) => s.startTime < fcp!);
  expect(early, `scripts requested before the first contentful paint (${fcp} ms)`).toEqual([]);
  // The preloads and the module script share one module map: nothing is fetched twice.
  expect(new Set(scripts.map((s) => s.path)).size).toBe(scripts.length);
  expect(refused).toEqual([]);

  // Client-side navigation still works: the document (and this marker) survives it.
  await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));
  await page.getByRole("navigation").getByRole("link", { name: "Council", exact: true }).first().click();
  await expect(page).toHaveURL(/\/council$/);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
}

test("a visitor's cached page paints before any script is requested, then hydrates", async ({ page }) => {
  await page.request.get("/");
  await expectScriptsAfterFirstPaint(page, "/");
});

test("a member's page (nonce CSP) paints before any script is requested, then hydrates", async ({ page }) => {
  await createMember(page.request);
  await expectScriptsAfterFirstPaint(page, "/monastery");
});
