import { randomInt } from "node:crypto";
import { createMember, expect, expectNoSeriousViolations, gotoHydrated, PASSWORD, submitSignIn, test, uniqueEmail } from "./support/fixtures";
import { mailTo } from "./support/outbox";

/*
 * Issue 25, item 9 (ADR 0042): ten wrong passwords from anywhere lock an address for 15 minutes,
 * but not its owner, who asks the locked page for a mailed one-time link, and whose browser is
 * trusted from then on.
 */

const LOCKED = /Too many attempts\. Try again in \d+ minutes?\./;

test("the owner of a locked address signs in by a mailed link, and then by password from the same browser", async ({ page, request }) => {
  const member = await createMember(request, { name: "Lena Locked", email: uniqueEmail("locked"), password: PASSWORD });
  // Someone else guesses, from addresses of their own (the per-IP limit is not what locks).
  for (let i = 0; i < 10; i++) {
    const guess = await request.post("/signin", {
      form: { email: member.email, password: `Wrong${i}Guess` },
      headers: { "x-forwarded-for": `10.250.${i}.${randomInt(1, 255)}` },
      maxRedirects: 0,
    });
    expect(guess.status()).toBe(400);
  }

  await gotoHydrated(page, "/signin");
  await submitSignIn(page, member.email, PASSWORD);
  const main = page.getByRole("main");
  await expect(main.getByText(LOCKED)).toBeVisible();
  await main.getByRole("button", { name: "Email me a sign-in link" }).click();
  await expect(main.getByRole("status")).toContainText("If an account exists for that address, we have sent it a sign-in link.");

  const link = (await mailTo(member.email, "/signin/link?token=")).match(/https?:\/\/\S+\/signin\/link\?token=[A-Za-z0-9_-]+/)![0];
  const linkPath = new URL(link).pathname + new URL(link).search;
  await gotoHydrated(page, linkPath);
  await expect(main.getByRole("heading", { name: "Sign in from your email" })).toBeVisible();
  await expectNoSeriousViolations(page);
  await main.getByRole("button", { name: "Sign In", exact: true }).click();
  await expect(page).toHaveURL("/dashboard");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Welcome, ${member.name}`);

  // Used once: the link says so.
  await page.goto(linkPath);
  await expect(main.getByRole("heading", { name: "This link cannot be used" })).toBeVisible();
  await expect(main.getByRole("link", { name: "Ask for a new link" })).toHaveAttribute("href", "/signin/email-link");

  // Signed out, the address still locked for everyone else: this browser's password gets through.
  const nav = page.getByRole("navigation", { name: "Main" });
  await gotoHydrated(page, "/");
  await nav.getByLabel(`Account menu for ${member.name}`, { exact: true }).click();
  await nav.getByRole("button", { name: "Sign Out", exact: true }).click();
  await expect(nav.getByRole("link", { name: "Sign In", exact: true })).toBeVisible();
  const stranger = await request.post("/signin", {
    form: { email: member.email, password: PASSWORD },
    headers: { "x-forwarded-for": `10.251.0.${randomInt(1, 255)}` },
    maxRedirects: 0,
  });
  expect(stranger.status()).toBe(429);
  await gotoHydrated(page, "/signin");
  await submitSignIn(page, member.email, PASSWORD);
  await expect(page).toHaveURL("/dashboard");
});
