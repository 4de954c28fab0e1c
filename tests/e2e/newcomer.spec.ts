import type { Locator, Page } from "@playwright/test";
import {
  createMember,
  expect,
  expectNoSeriousViolations,
  gotoHydrated,
  linkTarget,
  oldestQuestionLink,
  newMember,
  PASSWORD,
  test,
  uniqueEmail,
} from "./support/fixtures";
import { startDiscussion } from "./support/forum";
import { mailTo } from "./support/outbox";

/*
 * Issue 8: a new member's first hour. Each test holds one of the rough edges a new member tripped
 * over; where layout is the point it runs at a phone's width (375 px) and a desktop's (1280 px).
 */

const PHONE = { width: 375, height: 740 };
const DESKTOP = { width: 1280, height: 900 };

/** The pages whose calls to action a member should never see as 'Join the Path' (item 1). */
const CTA_PAGES = ["/", "/ranks", "/manifesto", "/events", "/forge"];

test.describe("1. calls to action", () => {
  test("visitors keep the seed's 'Join the Path' and 'Share Your Creation', both to /join", async ({ page }) => {
    for (const path of ["/", "/ranks", "/manifesto"]) {
      await page.goto(path);
      await expect(page.getByRole("main").getByRole("link", { name: "Join the Path", exact: true })).toHaveAttribute("href", "/join");
    }
    await page.goto("/events");
    await expect(page.getByRole("main").getByRole("link", { name: "join the path", exact: true })).toHaveAttribute("href", "/join");
    await page.goto("/forge");
    await expect(page.getByRole("main").getByRole("link", { name: "Share Your Creation", exact: true })).toHaveAttribute("href", "/join");
  });

  test("a member is never sent to /join: the dashboard, or the form the call promises", async ({ page }) => {
    await createMember(page.request, newMember("Cato Member"));
    for (const path of CTA_PAGES) {
      await page.goto(path);
      await expect(page.getByRole("main").locator('a[href="/join"]'), `links to /join on ${path}`).toHaveCount(0);
    }
    await page.goto("/");
    await expect(page.getByRole("main").getByRole("link", { name: "Go to Dashboard", exact: true })).toHaveAttribute("href", "/dashboard");
    await page.goto("/ranks");
    await page.getByRole("main").getByRole("link", { name: "Go to Dashboard", exact: true }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Welcome, Cato Member");
    await page.goto("/manifesto");
    await expect(page.getByRole("main").getByRole("link", { name: "Continue Your Path", exact: true })).toHaveAttribute("href", "/dashboard");
    await page.goto("/events");
    await expect(page.getByRole("main").getByText("You are signed in, so you can RSVP as soon as an event is listed.")).toBeVisible();
    // A member's 'Share Your Creation' opens the form.
    await page.goto("/forge");
    await page.getByRole("main").getByRole("link", { name: "Share Your Creation", exact: true }).click();
    await expect(page).toHaveURL(/\/forge\/new$/);
    await expect(page.getByRole("heading", { name: "Share Your Creation", level: 1 })).toBeVisible();
  });
});

test.describe("2. featured discussions", () => {
  for (const path of ["/", "/monastery", "/battlefield"]) {
    test(`their titles on ${path} open the discussion`, async ({ page }) => {
      await gotoHydrated(page, path);
      const featured = page.getByRole("region", { name: "Featured Discussions" });
      const titles = featured.getByRole("heading", { level: 3 });
      const count = await titles.count();
      expect(count).toBeGreaterThan(0);
      for (let i = 0; i < count; i++) {
        const heading = titles.nth(i);
        const title = (await heading.textContent())!.trim();
        const link = heading.getByRole("link", { name: title, exact: true });
        await expect(link).toHaveAttribute("href", /^\/(monastery|battlefield)\/[a-z0-9-]+\/\d+-[a-z0-9-]+$/);
        if (i === 0) {
          await link.click();
          await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
          await page.goBack();
        }
      }
    });
  }
});

test.describe("4. the site's name on a phone", () => {
  test.use({ viewport: PHONE });

  test("reads 'Inner Peace. Outer Strength.' in full, never 'IPOS', and fits beside the controls", async ({ page }) => {
    await page.goto("/");
    const nav = page.getByRole("navigation", { name: "Main" });
    const brand = nav.getByRole("link", { name: "Inner Peace. Outer Strength.", exact: true });
    await expect(brand).toBeVisible();
    await expect(nav.getByText("IPOS")).toHaveCount(0);
    expect((await brand.innerText()).replace(/\s+/g, " ").trim()).toBe("☯ Inner Peace. Outer Strength.");
    const brandBox = (await brand.boundingBox())!;
    const avatarBox = (await nav.getByText("IN", { exact: true }).boundingBox())!;
    expect(brandBox.x + brandBox.width, "the name ends before the IN placeholder").toBeLessThanOrEqual(avatarBox.x);
    const headerBox = (await page.getByRole("banner").boundingBox())!;
    expect(brandBox.y + brandBox.height).toBeLessThanOrEqual(headerBox.y + headerBox.height);
  });
});

test.describe("5. rank badges in 'Privileges by rank'", () => {
  for (const viewport of [DESKTOP, PHONE]) {
    test(`stay pills, not tall capsules, at ${viewport.width} px`, async ({ page }) => {
      await page.setViewportSize(viewport);
      await page.goto("/ranks");
      const badges = page.getByRole("region", { name: "Privileges by rank" }).locator("dt [data-slot=badge]");
      expect(await badges.count()).toBeGreaterThanOrEqual(7);
      for (const box of await badges.evaluateAll((els) => els.map((el) => el.getBoundingClientRect().toJSON()))) {
        expect(box.height, "a badge is one line of text high").toBeLessThan(32);
        expect(box.width).toBeGreaterThan(box.height);
      }
    });
  }
});

test.describe("6. a deleted reply", () => {
  test("the replies heading names it, so the count agrees with the cards shown", async ({ page }) => {
    await createMember(page.request, newMember("Dana Deleter"));
    await startDiscussion(page, "Ten minutes of pages before breakfast", "Does anyone keep it up on weekends?");
    await page.getByLabel("Your reply").fill("Answering myself: weekends are the hard part.");
    await page.getByRole("button", { name: "Post Reply" }).click();
    const replies = page.getByRole("region", { name: /^1 Reply/ });
    await expect(replies.getByRole("heading", { level: 2 })).toHaveText("1 Reply");

    const card = page.locator("li[id^=reply-]");
    await card.getByText("Delete", { exact: true }).click();
    await card.getByRole("button", { name: "Yes, delete" }).click();
    await expect(card.getByText("[deleted]")).toBeVisible();
    const heading = page.locator("#replies");
    await expect(heading).toHaveText("0 Replies · 1 deleted");
    await expect(page.locator("li[id^=reply-]")).toHaveCount(1);
  });
});

test.describe("7. a reset link", () => {
  test("that was used says so when its page opens, with no form to fill in first", async ({ page, request }) => {
    const member = await createMember(request, { name: "Rhea Reset", email: uniqueEmail("reset"), password: PASSWORD });
    await gotoHydrated(page, "/forgot-password");
    await page.getByRole("main").getByLabel("Email", { exact: true }).fill(member.email);
    await page.getByRole("button", { name: "Send Reset Link" }).click();
    await expect(page.getByRole("status").filter({ hasText: "If an account exists" })).toBeVisible();
    const link = (await mailTo(member.email)).match(/https?:\/\/\S+\/reset-password\?token=[A-Za-z0-9_-]+/)![0];
    const resetPath = new URL(link).pathname + new URL(link).search;

    // Unused: the form.
    await gotoHydrated(page, resetPath);
    const main = page.getByRole("main");
    await main.getByLabel("New Password", { exact: true }).fill("Renewed42Strong");
    await main.getByLabel("Confirm Password", { exact: true }).fill("Renewed42Strong");
    await main.getByRole("button", { name: "Reset Password" }).click();
    await expect(main.getByRole("heading", { name: "Password reset" })).toBeVisible();

    // Used: the message at once, and the way to a new link.
    await page.goto(resetPath);
    await expect(main.getByRole("heading", { name: "This link cannot be used" })).toBeVisible();
    await expect(main.getByRole("alert")).toHaveText("This reset link is invalid or has expired. Ask for a new one.");
    await expect(main.getByLabel("New Password")).toHaveCount(0);
    await expect(main.getByRole("button", { name: "Reset Password" })).toHaveCount(0);
    await expect(main.getByRole("link", { name: "Ask for a new link" })).toHaveAttribute("href", "/forgot-password");

    // A made-up token is treated the same way.
    await page.goto("/reset-password?token=not-a-real-token");
    await expect(main.getByRole("heading", { name: "This link cannot be used" })).toBeVisible();
  });
});

/** Page-coordinate boxes of two elements do not intersect. */
function disjoint(a: { x: number; y: number; width: number; height: number }, b: typeof a) {
  return a.x + a.width <= b.x || b.x + b.width <= a.x || a.y + a.height <= b.y || b.y + b.height <= a.y;
}

test.describe("8. menus", () => {
  test.describe("on a phone", () => {
    test.use({ viewport: PHONE });

    test("Escape closes the mobile menu and gives focus back to its button", async ({ page }) => {
      await gotoHydrated(page, "/");
      await page.getByRole("button", { name: "Open menu" }).click();
      const menu = page.locator("#mobile-menu");
      await expect(menu).toBeVisible();
      await menu.getByRole("link", { name: "Forge", exact: true }).focus();
      await page.keyboard.press("Escape");
      await expect(menu).toBeHidden();
      await expect(page.getByRole("button", { name: "Open menu" })).toBeFocused();
    });

    test("the avatar menu and the mobile menu are never open together, and Escape closes the avatar menu", async ({ page }) => {
      const member = await createMember(page.request, newMember("Mina Menus"));
      await gotoHydrated(page, "/");
      const account = page.getByLabel(`Account menu for ${member.name}`, { exact: true });
      const dashboard = page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Dashboard", exact: true });
      const menu = page.locator("#mobile-menu");

      await page.getByRole("button", { name: "Open menu" }).click();
      await expect(menu).toBeVisible();
      await account.click();
      await expect(dashboard).toBeVisible();
      await expect(menu).toBeHidden();
      await expect(page.getByRole("button", { name: "Open menu" })).toHaveAttribute("aria-expanded", "false");

      // And the other way round; the open one never covers the other's opener.
      await page.getByRole("button", { name: "Open menu" }).click();
      await expect(menu).toBeVisible();
      await expect(dashboard).toBeHidden();
      expect(disjoint((await menu.boundingBox())!, (await account.boundingBox())!)).toBe(true);

      await account.click();
      await expect(dashboard).toBeVisible();
      expect(disjoint((await dashboard.boundingBox())!, (await page.getByRole("button", { name: "Open menu" }).boundingBox())!)).toBe(true);
      await dashboard.focus();
      await page.keyboard.press("Escape");
      await expect(dashboard).toBeHidden();
      await expect(account).toBeFocused();
    });

    test("the visitors' IN placeholder opens the sign-in choices, and Escape closes them", async ({ page }) => {
      await gotoHydrated(page, "/");
      const nav = page.getByRole("navigation", { name: "Main" });
      const placeholder = nav.getByLabel("Sign in or join", { exact: true });
      await expect(placeholder).toHaveText("IN");
      const signIn = nav.getByRole("link", { name: "Sign In", exact: true });
      await expect(signIn).toBeHidden();
      await placeholder.click();
      await expect(signIn).toBeVisible();
      await expect(nav.getByRole("link", { name: "Join the Path", exact: true })).toHaveAttribute("href", "/join");
      await page.keyboard.press("Escape");
      await expect(signIn).toBeHidden();
      await expect(placeholder).toBeFocused();
      await placeholder.click();
      await signIn.click();
      await expect(page).toHaveURL("/signin");
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Welcome Back");
    });
  });

  test.describe("on a desktop", () => {
    test.use({ viewport: DESKTOP });

    test("Escape closes the avatar menu and focus returns to the avatar; a click outside closes it too", async ({ page }) => {
      const member = await createMember(page.request, newMember("Desk Top"));
      await gotoHydrated(page, "/");
      const account = page.getByLabel(`Account menu for ${member.name}`, { exact: true });
      const signOut = page.getByRole("button", { name: "Sign Out", exact: true });
      await account.focus();
      await page.keyboard.press("Enter");
      await expect(signOut).toBeVisible();
      await page.keyboard.press("Escape");
      await expect(signOut).toBeHidden();
      await expect(account).toBeFocused();
      await account.click();
      await expect(signOut).toBeVisible();
      await page.getByRole("heading", { level: 1 }).click();
      await expect(signOut).toBeHidden();
    });
  });
});

test.describe("9. after 'Registration Successful!'", () => {
  test("focus is on the success card's heading, not the page body", async ({ page }) => {
    await gotoHydrated(page, "/join");
    const main = page.getByRole("main");
    await main.getByLabel("Full Name", { exact: true }).fill("Fen Focus");
    await main.getByLabel("Email", { exact: true }).fill(uniqueEmail("focus"));
    await main.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await main.getByLabel("Confirm Password", { exact: true }).fill(PASSWORD);
    await main.getByRole("checkbox", { name: "I agree to the Terms of Service and Privacy Policy" }).check();
    await main.getByRole("button", { name: "Join the Movement" }).click();
    const heading = main.getByRole("heading", { name: "Registration Successful!" });
    await expect(heading).toBeVisible();
    await expect(heading).toBeFocused();
    await page.keyboard.press("Tab");
    await expect(main.getByRole("link", { name: "Continue to Dashboard" })).toBeFocused();
  });
});

test.describe("10. the dashboard's progress", () => {
  test("reads like a game: '0 / 50 XP to Acolyte' above a bar", async ({ page }) => {
    await createMember(page.request, newMember("Gale Gamer"));
    await page.goto("/dashboard");
    const main = page.getByRole("main");
    await expect(main.getByTestId("xp-progress")).toHaveText("0 / 50 XP to Acolyte");
    await expect(main.getByText(/\(\d+ XP\)/)).toHaveCount(0);
    const bar = main.getByRole("progressbar", { name: "Progress to Acolyte" });
    await expect(bar).toHaveAttribute("aria-valuenow", "0");
    await expect(bar).toHaveAttribute("aria-valuetext", "0 of 50 XP");
    await expect(main.getByText("50 XP to go", { exact: true })).toBeVisible();
  });
});

/** Initials as the navigation's avatar shows them: first and last names' first letters. */
function initialsOf(name: string) {
  const parts = name.trim().split(/\s+/);
  return ((parts[0]?.[0] ?? "") + (parts.length > 1 ? parts[parts.length - 1][0] : "")).toUpperCase();
}

async function expectAvatarsBesideAuthors(scope: Locator) {
  const bylines = scope.locator("[data-slot=byline]");
  const count = await bylines.count();
  expect(count, "bylines on the page").toBeGreaterThan(0);
  for (let i = 0; i < count; i++) {
    const byline = bylines.nth(i);
    const avatar = byline.locator("[data-slot=avatar]");
    await expect(avatar).toBeVisible();
    const name = (await byline.locator("span.font-medium").first().textContent())!;
    await expect(avatar).toHaveText(initialsOf(name));
  }
}

/** The first discussion listed in Morning Meditation. */
async function firstMeditationDiscussion(page: Page) {
  await page.goto("/monastery/morning-meditation");
  return (await page.getByRole("main").getByRole("heading", { level: 3 }).first().getByRole("link").getAttribute("href"))!;
}

/** A page of each kind that shows authors: the first question, creation and discussion. */
async function authorPages(page: Page) {
  const pages: string[] = ["/", "/council", "/forge", "/monastery/morning-meditation"];
  pages.push((await (await oldestQuestionLink(page)).getAttribute("href"))!);
  pages.push(await linkTarget(page, "/forge", /^View Creation: /));
  pages.push(await firstMeditationDiscussion(page));
  return pages;
}

test.describe("11. avatars", () => {
  test("every author shown has a generated avatar with their initials, and axe stays clean", async ({ page }) => {
    // Fourteen pages, each hydrated and run through axe.
    test.setTimeout(process.env.CI ? 180_000 : 90_000);
    for (const path of await authorPages(page)) {
      await gotoHydrated(page, path);
      await expectAvatarsBesideAuthors(page.getByRole("main"));
      await expectNoSeriousViolations(page);
    }
    // The Council's advisors have one too.
    await page.goto("/council");
    await expect(page.getByRole("region", { name: "Featured Advisors" }).locator("[data-slot=avatar]")).toHaveCount(3);
  });

  test("a member's avatar has the same colour wherever they appear, and members differ", async ({ page }) => {
    const colours = new Map<string, string>();
    for (const path of await authorPages(page)) {
      await page.goto(path);
      for (const { name, colour } of await page.locator("[data-slot=byline]").evaluateAll((els) =>
        // Two members may share a name; the handle is the member.
        els.map((el) => ({
          name: (el as HTMLElement).dataset.member!,
          colour: getComputedStyle(el.querySelector("[data-slot=avatar]")!).backgroundColor,
        })),
      )) {
        expect(colours.get(name) ?? colour, `${name}'s avatar colour on ${path}`).toBe(colour);
        colours.set(name, colour);
      }
    }
    expect(colours.size).toBeGreaterThan(3);
    expect(new Set(colours.values()).size, "colours come from the member, not one for all").toBeGreaterThan(1);
  });
});

/**
 * Every "·" in a post's card (outside the member's own text) that begins a visual line: its
 * previous visible character sits on an earlier line. Bylines must not wrap like that.
 */
async function dotsStartingALine(page: Page) {
  return page.evaluate(() => {
    const cards = document.querySelectorAll("main #post, main li[id^=reply-], main li[id^=answer-], main article, main [data-slot=card]");
    const found: string[] = [];
    for (const card of cards) {
      const walker = document.createTreeWalker(card, NodeFilter.SHOW_TEXT, {
        acceptNode: (node) => (node.parentElement?.closest(".prose-member") ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT),
      });
      let previous: DOMRect | null = null;
      for (let node = walker.nextNode() as Text | null; node; node = walker.nextNode() as Text | null) {
        const text = node.data;
        for (let i = 0; i < text.length; i++) {
          if (/\s/.test(text[i])) continue;
          const range = document.createRange();
          range.setStart(node, i);
          range.setEnd(node, i + 1);
          const rect = range.getBoundingClientRect();
          if (rect.width === 0 && rect.height === 0) continue;
          if (text[i] === "·" && previous && previous.bottom <= rect.top + 1) {
            found.push(`${(card as HTMLElement).id || card.tagName}: "${text.slice(i, i + 30)}"`);
          }
          previous = rect;
        }
      }
    }
    return found;
  });
}

test.describe("12. on a phone", () => {
  test.use({ viewport: PHONE });

  test("bylines never start a line with '·'", async ({ page }) => {
    await createMember(page.request, newMember("Bartholomew Longname-Whitfield"));
    const own = await startDiscussion(page, "A byline with a long name and an edit", "First version.");
    await page.locator("#post").getByRole("link", { name: "Edit" }).click();
    await page.locator("#post").getByLabel("Your post").fill("Second version.");
    await page.locator("#post").getByRole("button", { name: "Save Changes" }).click();
    await expect(page.getByText("Second version.")).toBeVisible();
    await page.getByLabel("Your reply").fill("And a reply, so the reply byline shows too.");
    await page.getByRole("button", { name: "Post Reply" }).click();
    await expect(page.getByText("And a reply, so the reply byline shows too.")).toBeVisible();

    const pages = [own, "/", "/monastery/morning-meditation"];
    pages.push(await firstMeditationDiscussion(page));
    pages.push(await linkTarget(page, "/council", /^View Question: /));
    pages.push(await linkTarget(page, "/forge", /^View Creation: /));
    for (const path of pages) {
      await page.goto(path);
      expect(await dotsStartingALine(page), `lines starting with "·" on ${path}`).toEqual([]);
    }
  });
});

test.describe("12. on a desktop", () => {
  test.use({ viewport: DESKTOP });

  test("the home page's 'View Question' buttons line up", async ({ page }) => {
    await page.goto("/");
    const buttons = page.getByRole("region", { name: "From the Council" }).getByRole("link", { name: /^View Question: / });
    await expect(buttons).toHaveCount(3);
    const tops = await buttons.evaluateAll((els) => els.map((el) => Math.round(el.getBoundingClientRect().top)));
    expect(Math.max(...tops) - Math.min(...tops), `tops ${tops.join(", ")}`).toBeLessThanOrEqual(1);
  });
});
