import { createMember, expect, newMember, test } from "./support/fixtures";

/*
 * Issue 26 item 4: a new member's dashboard starts with their first steps. The layout is the point
 * here (the HTML is held by tests/integration/dashboard.test.ts): at a phone's width and a
 * desktop's, the checklist shows its four steps as links, inside the page, nothing cut off.
 */

const WIDTHS = [
  { width: 375, height: 740 },
  { width: 1280, height: 900 },
];

const STEPS = ["Introduce yourself in a topic", "Join a challenge", "Ask or answer in the Council", "Share in the Forge"];

test("a new member sees the first-steps checklist, whole and inside the page, at 375 and 1280 px", async ({ page }) => {
  await createMember(page.request, newMember("Fern Firststeps"));
  for (const size of WIDTHS) {
    await page.setViewportSize(size);
    await page.goto("/dashboard");
    const main = page.getByRole("main");
    await expect(main.getByRole("heading", { name: "First steps" })).toBeVisible();
    const list = main.getByTestId("first-steps");
    await expect(list.getByText("0 of 4 done.")).toBeVisible();
    for (const name of STEPS) {
      const link = list.getByRole("link", { name, exact: true });
      await expect(link).toBeVisible();
      const box = (await link.boundingBox())!;
      expect(box.x, `${name} at ${size.width}`).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width, `${name} at ${size.width}`).toBeLessThanOrEqual(size.width);
    }
    await expect(list.getByRole("link", { name: STEPS[0], exact: true })).toHaveAttribute("href", "/monastery");
    // Nothing on the page is wider than the screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth), `page width at ${size.width}`).toBeLessThanOrEqual(size.width);
    await expect(main.getByRole("link", { name: "Browse events", exact: true })).toBeVisible();
  }
});
