import { createMember, expect, expectNoSeriousViolations, newMember, test, waitForHydration } from "./support/fixtures";

/*
 * The anonymous page cache (ADR 0026) from a browser: a page served from memory carries no nonce,
 * only its inline scripts' hashes in the CSP. If those were wrong, Chromium would refuse React
 * Router's inline scripts and the page would never hydrate.
 */
test("a cached page hydrates under its hash-based CSP, navigates client-side, and axe stays clean", async ({ page }) => {
  const refused: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" && /Content Security Policy/i.test(message.text())) refused.push(message.text());
  });
  // A visitor's request (no cookie) fills the cache, so the browser's own visit is a hit.
  await page.request.get("/");
  const response = await page.goto("/");
  expect(response?.headers()["x-page-cache"]).toBe("hit");
  expect(response?.headers()["content-security-policy"]).not.toContain("nonce-");
  await waitForHydration(page);

  // A client-side navigation keeps the document (and this marker); a full load would lose it.
  await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));
  await page.getByRole("link", { name: "Enter The Monastery" }).first().click();
  await expect(page).toHaveURL(/\/monastery$/);
  await expect(page.getByRole("heading", { level: 1, name: "The Monastery" })).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);

  await page.goBack();
  await expect(page).toHaveURL(/\/$/);
  await expectNoSeriousViolations(page);
  expect(refused).toEqual([]);
});

/*
 * A signed-in member's pages are kept for them too (ADR 0040): a reload is answered from memory,
 * hydrates under its hashes, and the member's own reply shows at once, on a new document as well.
 */
test("a member's kept page hydrates under its hash-based CSP, and their own reply shows at once", async ({ page }) => {
  const refused: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" && /Content Security Policy/i.test(message.text())) refused.push(message.text());
  });
  await createMember(page.request, newMember("Keiko Kept"));
  await page.goto("/monastery/journaling-practice");
  await page.getByRole("link", { name: "Three questions for the evening review" }).click();
  await expect(page).toHaveURL(/\/monastery\/journaling-practice\/\d+-three-questions-for-the-evening-review$/);
  const url = page.url();
  await page.goto(url);
  const response = await page.goto(url);
  expect(response?.headers()["x-page-cache"]).toBe("hit");
  expect(response?.headers()["content-security-policy"]).not.toContain("nonce-");
  await waitForHydration(page);
  await expect(page.getByLabel("Account menu for Keiko Kept", { exact: true })).toBeVisible();

  await page.getByLabel("Your reply").fill("Kept pages still show my own words at once.");
  await page.getByRole("button", { name: "Post Reply" }).click();
  await expect(page.getByText("Kept pages still show my own words at once.")).toBeVisible();
  const reloaded = await page.goto(url);
  expect(reloaded?.headers()["x-page-cache"]).toBe("miss");
  await expect(page.getByText("Kept pages still show my own words at once.")).toBeVisible();
  expect(refused).toEqual([]);
});

test("the build's public files are served by name, and a page path never reaches the disk", async ({ page }) => {
  const icon = await page.request.get("/favicon.svg");
  expect(icon.status()).toBe(200);
  expect(icon.headers()["content-type"]).toContain("image/svg+xml");
  expect(icon.headers()["cache-control"]).toContain("max-age=3600");
  const html = await (await page.request.get("/")).text();
  const script = /\/assets\/[^"]+\.js/.exec(html)?.[0];
  expect(script).toBeTruthy();
  const asset = await page.request.get(script!);
  expect(asset.status()).toBe(200);
  expect(asset.headers()["cache-control"]).toContain("immutable");
  // A name that is not one of the build's files is a page like any other: the site's 404.
  const missing = await page.request.get("/favicon.png");
  expect(missing.status()).toBe(404);
  expect(await missing.text()).toContain("<html");
});

/*
 * The browser's code as it arrives (ADR 0038): the build's brotli copies, stored, not compressed per
 * request; the page hydrates from them, so they decode to the scripts the build wrote.
 */
test("the page's scripts come as the build's brotli copies, and the page hydrates from them", async ({ page }) => {
  const assets: { url: string; encoding?: string; etag?: string }[] = [];
  page.on("response", (response) => {
    if (new URL(response.url()).pathname.startsWith("/assets/")) {
      const headers = response.headers();
      assets.push({ url: response.url(), encoding: headers["content-encoding"], etag: headers.etag });
    }
  });
  await page.goto("/monastery");
  await waitForHydration(page);
  const core = assets.find((a) => /\/assets\/core-[\w-]+\.js$/.test(a.url));
  expect(core, "the core chunk is loaded").toBeDefined();
  expect(core?.encoding).toBe("br");
  expect(core?.etag).toMatch(/-br"$/);
  // Every chunk big enough to have a copy (the build skips files under 1 KB) came as brotli.
  const sizes = await Promise.all(
    assets.map(async (a) => ({ ...a, bytes: (await (await page.request.get(a.url, { headers: { "accept-encoding": "identity" } })).body()).length })),
  );
  for (const asset of sizes.filter((a) => a.bytes >= 1024)) expect(asset.encoding, asset.url).toBe("br");
});
