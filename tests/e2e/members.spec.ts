import type { Page } from "@playwright/test";
import {
  createMember,
  expect,
  expectNoSeriousViolations,
  gotoHydrated,
  newMember,
  PASSWORD,
  submitSignIn,
  test,
  uniqueEmail,
  waitForHydration,
} from "./support/fixtures";
import { queuedMailTo } from "./support/database";

/*
 * Issue 11, items 6 and 7: profiles, every author name linking to one, and the settings a member
 * uses to change their name, password and address, take their data and leave.
 */

/** Every byline on the page: its author name must sit inside a link to /members/<handle>. */
async function expectAuthorNamesLinked(page: Page) {
  const names = page.locator('[data-slot="byline"] [data-slot="author-name"]');
  const found = await names.evaluateAll((all) => all.map((n) => [n.textContent, n.closest("a")?.getAttribute("href") ?? null] as const));
  for (const [text, href] of found) {
    if (text === "[deleted member]") expect(href, `${page.url()}: a deleted member has no profile link`).toBeNull();
    else expect(href, `${page.url()}: author "${text}"`).toMatch(/^\/members\/[a-z0-9-]+$/);
  }
  return found.length;
}

test.describe("author names link to profiles", () => {
  test.describe.configure({ timeout: 90_000 });
  test("on every page that shows authors, each name and rank badge is a link to /members/…", async ({ page }) => {
    let checked = 0;
    for (const path of ["/", "/monastery", "/battlefield", "/forge", "/council"]) {
      await page.goto(path);
      checked += await expectAuthorNamesLinked(page);
    }
    // A topic, a discussion, a question and a creation: the detail pages, opened by their links.
    const hrefOf = async (path: string, link: ReturnType<Page["locator"]>) => {
      await page.goto(path);
      return (await link.first().getAttribute("href"))!;
    };
    const topicPath = await hrefOf("/monastery", page.getByRole("link", { name: "Explore" }));
    const discussionPath = await hrefOf(topicPath, page.locator(`main a[href^="${topicPath}/"]`).filter({ hasNotText: /new/i }));
    const questionPath = await hrefOf("/council", page.getByRole("link", { name: /^View Question: / }));
    const creationPath = await hrefOf("/forge", page.getByRole("link", { name: /^View Creation: / }));
    for (const path of [topicPath, discussionPath, questionPath, creationPath]) {
      await page.goto(path);
      checked += await expectAuthorNamesLinked(page);
    }
    expect(checked).toBeGreaterThan(20);

    // Advisor cards: the name is a link too.
    await page.goto("/council");
    const advisor = page.locator("main h3 a[href^='/members/']").first();
    const name = (await advisor.textContent())!;
    await advisor.click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(name);
  });

  test("an author's name opens their profile with rank, contributions and links to them", async ({ page }) => {
    await page.goto("/forge");
    const author = page.locator('[data-slot="byline"] a[href^="/members/"]').first();
    const name = (await author.locator('[data-slot="author-name"]').textContent())!;
    await author.click();
    await expect(page).toHaveURL(/\/members\/[a-z0-9-]+$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(name);
    await expect(page.getByRole("heading", { name: "Contributions" })).toBeVisible();
    const creations = page.getByRole("list", { name: /Creations/ });
    await expect(creations.getByRole("link").first()).toBeVisible();
    await creations.getByRole("link").first().click();
    await expect(page).toHaveURL(/\/forge\/\d+$/);
  });

  test("an unknown handle is the 404 page", async ({ page }) => {
    expect((await page.goto("/members/no-such-member-here"))?.status()).toBe(404);
    await expect(page.getByText("Oops! Page not found")).toBeVisible();
    expect((await page.goto("/members/%3Cb%3E"))?.status()).toBe(404);
  });
});

test.describe("a member's own profile and settings", () => {
  test.use({ timezoneId: "Asia/Tokyo" });
  // A whole journey of page loads: more than the default on a machine shared with other suites.
  test.describe.configure({ timeout: 90_000 });

  test("joins with the browser's time zone, finds Profile and Settings in the menu, edits the profile", async ({ page }) => {
    const email = uniqueEmail("tz");
    await gotoHydrated(page, "/join");
    const main = page.getByRole("main");
    await main.getByLabel("Full Name", { exact: true }).fill("Tomoe Gozen");
    await main.getByLabel("Email", { exact: true }).fill(email);
    await main.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await main.getByLabel("Confirm Password", { exact: true }).fill(PASSWORD);
    await main.getByRole("checkbox", { name: /I agree to the/ }).check();
    await main.getByRole("button", { name: "Join the Movement" }).click();
    await expect(page.getByText("Registration Successful!")).toBeVisible();

    await gotoHydrated(page, "/");
    await page.getByLabel("Account menu for Tomoe Gozen", { exact: true }).click();
    await page.getByRole("link", { name: "Profile", exact: true }).click();
    await expect(page).toHaveURL(/\/members\/tomoe-gozen(-\d+)?$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Tomoe Gozen");
    await expect(page.getByText("Initiate").first()).toBeVisible();
    const profileUrl = page.url();

    await waitForHydration(page);
    await page.getByLabel("Account menu for Tomoe Gozen", { exact: true }).click();
    await page.getByRole("link", { name: "Settings", exact: true }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Settings" })).toBeVisible();
    await waitForHydration(page);
    await expect(page.getByLabel("Time zone")).toHaveValue("Asia/Tokyo");

    const form = page.getByRole("form", { name: "Profile" });
    await form.getByLabel("Full Name").fill("T");
    await form.getByRole("button", { name: "Save profile" }).click();
    await expect(form.getByText("Full name must be at least 2 characters")).toBeVisible();
    await form.getByLabel("Full Name").fill("Tomoe of Echigo");
    await form.getByLabel("Bio").fill("x".repeat(251));
    await expect(form.getByText("Bio cannot exceed 250 characters")).toBeVisible();
    await form.getByLabel("Bio").fill("Archer, rider, and a student of stillness.");
    await form.getByRole("checkbox", { name: "Philosophy & Wisdom" }).check();
    await form.getByLabel("Time zone").selectOption("Europe/Lisbon");
    await form.getByRole("button", { name: "Save profile" }).click();
    await expect(form.getByText("Your profile is saved.")).toBeVisible();

    await page.goto(profileUrl);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Tomoe of Echigo");
    await expect(page.getByTestId("profile-bio")).toHaveText("Archer, rider, and a student of stillness.");
    await expect(page.getByTestId("profile-interests")).toContainText("Philosophy & Wisdom");
    await expectNoSeriousViolations(page);
    await page.goto("/settings");
    await expect(page.getByLabel("Time zone")).toHaveValue("Europe/Lisbon");
    await expectNoSeriousViolations(page);
  });
});

test.describe("settings: password, email, export, deletion", () => {
  test.describe.configure({ timeout: 90_000 });
  test("changing the password needs the current one and signs out every other session", async ({ page, browser }) => {
    const member = await createMember(page.request, newMember("Hojo Masako"));
    const other = await browser.newContext();
    const otherPage = await other.newPage();
    await otherPage.goto("/signin");
    await submitSignIn(otherPage, member.email, member.password);
    await expect(otherPage).toHaveURL(/\/dashboard$/);

    await gotoHydrated(page, "/settings");
    const form = page.getByRole("form", { name: "Password" });
    await form.getByLabel("Current password").fill("Wrong-password-1");
    await form.getByLabel("New password", { exact: true }).fill("Newer-Path-77");
    await form.getByLabel("Confirm new password").fill("Newer-Path-77");
    await form.getByRole("button", { name: "Change password" }).click();
    await expect(form.getByText("The password is not correct")).toBeVisible();

    await form.getByLabel("Current password").fill(member.password);
    await form.getByRole("button", { name: "Change password" }).click();
    await expect(form.getByText("Your password is changed. Every other session is signed out.")).toBeVisible();

    await page.goto("/dashboard");
    await expect(page).toHaveURL(/\/dashboard$/);
    await otherPage.goto("/dashboard");
    await expect(otherPage).toHaveURL(/\/signin\?redirectTo=%2Fdashboard$/);
    await submitSignIn(otherPage, member.email, "Newer-Path-77");
    await expect(otherPage).toHaveURL(/\/dashboard$/);
    await other.close();
  });

  test("a new email address changes only through the link mailed to it, once", async ({ page }) => {
    const member = await createMember(page.request, newMember("Ono no Komachi"));
    const newAddress = uniqueEmail("moved");
    await gotoHydrated(page, "/settings");
    const form = page.getByRole("form", { name: "Email address" });
    await form.getByLabel("New email").fill(newAddress);
    await form.getByLabel("Current password").fill("Wrong-password-1");
    await form.getByRole("button", { name: "Send confirmation link" }).click();
    await expect(form.getByText("The password is not correct")).toBeVisible();
    await form.getByLabel("Current password").fill(member.password);
    await form.getByRole("button", { name: "Send confirmation link" }).click();
    await expect(form.getByText(`We sent a link to ${newAddress}.`)).toBeVisible();
    await expect(page.getByText(`You sign in with ${member.email}.`)).toBeVisible();

    const mail = await queuedMailTo(newAddress);
    expect(mail?.subject).toBe("Confirm your new email address");
    const link = new URL(mail!.text_body.match(/https?:\/\/\S+\/settings\/email\?token=\S+/)![0]);
    await gotoHydrated(page, link.pathname + link.search);
    await expect(page.getByText(newAddress)).toBeVisible();
    await expectNoSeriousViolations(page);
    await page.getByRole("button", { name: "Confirm email address" }).click();
    await expect(page.getByText("Your email address is changed")).toBeVisible();

    expect((await page.goto(link.pathname + link.search))?.status()).toBe(404);
    await page.goto("/settings");
    await expect(page.getByText(`You sign in with ${newAddress}.`)).toBeVisible();
  });

  test("downloads all one's data as JSON", async ({ page }) => {
    const member = await createMember(page.request, newMember("Sei Shonagon"));
    await gotoHydrated(page, "/settings");
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Download my data" }).click()]);
    expect(download.suggestedFilename()).toMatch(/^inner-peace-outer-strength-.+\.json$/);
    const body = JSON.parse(await (await download.createReadStream()).toArray().then((chunks) => Buffer.concat(chunks).toString("utf8")));
    expect(body.profile).toMatchObject({ name: member.name, email: member.email });
    expect(JSON.stringify(body)).not.toContain(member.password);
  });

  test("deleting the account needs the password; then the member is signed out and cannot sign in", async ({ page }) => {
    const member = await createMember(page.request, newMember("Murasaki Shikibu"));
    await gotoHydrated(page, "/settings");
    const form = page.getByRole("form", { name: "Delete account" });
    await form.getByLabel("Current password").fill("Wrong-password-1");
    await form.getByRole("button", { name: "Delete my account" }).click();
    await expect(form.getByText("The password is not correct")).toBeVisible();
    await form.getByLabel("Current password").fill(member.password);
    await form.getByRole("button", { name: "Delete my account" }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByText("Your account is deleted")).toBeVisible();
    await expect(page.getByRole("link", { name: "Sign In", exact: true })).toBeVisible();
    await page.goto("/signin");
    await submitSignIn(page, member.email, member.password);
    await expect(page.getByText("Invalid email or password")).toBeVisible();
  });
});
