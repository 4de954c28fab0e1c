import type { Page } from "@playwright/test";
import { createMember, expect, test, waitForHydration } from "./support/fixtures";

/*
 * ADR 0041: a page paints from its HTML and inline CSS before any script is requested; the page's
 * modules are fetched after its first contentful paint and still hydrate it. Both pages here are
 * GETs, so their CSP names the inline scripts by hash (ADR 0026, 0040); a page answering a form post
 * carries a nonce instead, on the same module script (route-scripts.test.ts checks the attribute),
 * and the preloads it adds are fetched from the site's own origin ('self') under either policy.
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

/** Collects what the browser reports as errors: refused scripts, hydration mismatches, exceptions. */
function errorsOf(page: Page) {
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(error.message));
  return errors;
}

async function expectScriptsAfterFirstPaint(page: Page, html: string) {
  // The document itself asks for no module: no preload, no static import.
  expect(html).not.toMatch(/<link[^>]+modulepreload/);
  const moduleScript = html.match(/<script[^>]*type="module"[^>]*>([\s\S]*?)<\/script>/)?.[1] ?? "";
  expect(moduleScript).toContain("first-contentful-paint");
  expect(moduleScript).not.toMatch(/^\s*import\s/m);

  await waitForHydration(page);
  const { fcp, scripts } = await paintAndScripts(page);
  expect(fcp, "the page has a first contentful paint").not.toBeNull();
  expect(scripts.length, "the client entry and route modules loaded").toBeGreaterThan(3);
  const early = scripts.filter((s) => s.startTime < fcp!);
  expect(early, `scripts requested before the first contentful paint (${fcp} ms)`).toEqual([]);
  // The preloads and the imports must share one module map entry per module: a preload whose
  // request differs from the import's (another credentials mode, say) would be fetched twice.
  expect(new Set(scripts.map((s) => s.path)).size).toBe(scripts.length);
}

async function expectClientNavigation(page: Page) {
  // Client-side navigation works: the document (and this marker) survives it.
  await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));
  await page.getByRole("navigation").getByRole("link", { name: "Council", exact: true }).first().click();
  await expect(page).toHaveURL(/\/council$/);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
}

test("a visitor's cached page paints before any script is requested, then hydrates", async ({ page }) => {
  const errors = errorsOf(page);
  await page.request.get("/");
  const response = await page.goto("/");
  expect(response!.headers()["content-security-policy"]).toContain("'sha256-");
  await expectScriptsAfterFirstPaint(page, await response!.text());
  await expectClientNavigation(page);
  expect(errors).toEqual([]);
});

test("a member's page paints before any script is requested, then hydrates", async ({ page }) => {
  const errors = errorsOf(page);
  const member = await createMember(page.request);
  const response = await page.goto("/monastery");
  await expectScriptsAfterFirstPaint(page, await response!.text());
  await expect(page.getByLabel(`Account menu for ${member.name}`, { exact: true })).toBeVisible();
  await expectClientNavigation(page);
  expect(errors).toEqual([]);
});
