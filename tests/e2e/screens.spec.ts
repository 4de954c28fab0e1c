import type { Locator, Page } from "@playwright/test";
import { expect, gotoHydrated, test, waitForHydration } from "./support/fixtures";
import {
  ADVISORS,
  CONTENT_PAGES,
  CREATIONS,
  escapeRegExp,
  FOOTER_LINKS,
  FORGE_CATEGORIES,
  NAV_LINKS,
  QUESTIONS,
  RANKS,
  SECTIONS,
  VIRTUES,
} from "./support/site";

/** The card (the heading's parent) that holds a level-3 heading. */
function cardOf(scope: Locator, title: string) {
  return scope.getByRole("heading", { name: title, exact: true, level: 3 }).locator("..");
}

async function expectOk(page: Page, path: string) {
  const response = await page.goto(path);
  expect(response?.status(), `GET ${path}`).toBe(200);
  return response!;
}

test.describe("navigation bar", () => {
  test("signed out: brand, section links, Sign In, Join the Path and the IN avatar", async ({ page }) => {
    await expectOk(page, "/");
    const nav = page.getByRole("banner").getByRole("navigation", { name: "Main" });
    await expect(nav.getByRole("link", { name: "Inner Peace. Outer Strength.", exact: true })).toHaveAttribute("href", "/");
    for (const link of NAV_LINKS) {
      await expect(nav.getByRole("link", { name: link.name, exact: true })).toHaveAttribute("href", link.href);
    }
    await expect(nav.getByRole("link", { name: "Sign In", exact: true })).toHaveAttribute("href", "/signin");
    await expect(nav.getByRole("link", { name: "Join the Path", exact: true })).toHaveAttribute("href", "/join");
    await expect(nav.getByText("IN", { exact: true })).toBeVisible();
    // On a wide screen the mobile toggle is not offered.
    await expect(page.getByRole("button", { name: "Open menu" })).toBeHidden();
  });

  test("its links navigate between the seed's screens", async ({ page }) => {
    await gotoHydrated(page, "/");
    const nav = page.getByRole("navigation", { name: "Main" });
    const destinations = [
      { name: "Forge", url: "/forge", h1: "The Forge" },
      { name: "Council", url: "/council", h1: "The Council" },
      { name: "Sign In", url: "/signin", h1: "Welcome Back" },
      { name: "Join the Path", url: "/join", h1: "Join the Path" },
      { name: "Home", url: "/", h1: "Inner Peace. Outer Strength." },
      { name: "Inner Peace. Outer Strength.", url: "/", h1: "Inner Peace. Outer Strength." },
    ];
    for (const d of destinations) {
      await nav.getByRole("link", { name: d.name, exact: true }).click();
      await expect(page).toHaveURL(d.url);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(d.h1);
    }
  });

  test("its Monastery and Battlefield links open the sections without a full page load", async ({ page }) => {
    await gotoHydrated(page, "/");
    const nav = page.getByRole("navigation", { name: "Main" });
    for (const d of [
      { name: "Monastery", url: "/monastery", h1: "The Monastery" },
      { name: "Battlefield", url: "/battlefield", h1: "The Battlefield" },
    ]) {
      await nav.getByRole("link", { name: d.name, exact: true }).click();
      await expect(page).toHaveURL(d.url);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(d.h1);
      await expect(page.getByRole("link", { name: /^Explore / })).toHaveCount(6);
    }
  });

  test.describe("on a phone", () => {
    test.use({ viewport: { width: 375, height: 740 } });

    test("the menu toggle opens and closes the mobile menu", async ({ page }) => {
      await gotoHydrated(page, "/");
      const nav = page.getByRole("navigation", { name: "Main" });
      // Below the md breakpoint the section links and account links are hidden from the bar.
      for (const name of ["Home", "Monastery", "Battlefield", "Forge", "Council", "Sign In", "Join the Path"]) {
        await expect(nav.getByRole("link", { name, exact: true })).toBeHidden();
      }
      await expect(nav.getByText("IN", { exact: true })).toBeVisible();

      const toggle = page.getByRole("button", { name: "Open menu" });
      await expect(toggle).toBeVisible();
      await expect(toggle).toHaveAttribute("aria-expanded", "false");
      await expect(toggle).toHaveAttribute("aria-controls", "mobile-menu");
      const menu = page.locator(`#${await toggle.getAttribute("aria-controls")}`);
      await expect(menu).toBeHidden();

      await toggle.click();
      const close = page.getByRole("button", { name: "Close menu" });
      await expect(close).toHaveAttribute("aria-expanded", "true");
      await expect(menu).toBeVisible();
      const expected = [...NAV_LINKS, { name: "Join the Path", href: "/join" }, { name: "Sign In", href: "/signin" }];
      for (const link of expected) {
        const item = menu.getByRole("link", { name: link.name, exact: true });
        await expect(item).toBeVisible();
        await expect(item).toHaveAttribute("href", link.href);
      }

      await close.click();
      await expect(page.getByRole("button", { name: "Open menu" })).toHaveAttribute("aria-expanded", "false");
      await expect(menu).toBeHidden();

      // Following a link in the menu navigates and closes the menu.
      await page.getByRole("button", { name: "Open menu" }).click();
      await menu.getByRole("link", { name: "Forge", exact: true }).click();
      await expect(page).toHaveURL("/forge");
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("The Forge");
      await expect(page.getByRole("button", { name: "Open menu" })).toHaveAttribute("aria-expanded", "false");
      await expect(menu).toBeHidden();
    });
  });
});

test.describe("footer", () => {
  test("links, the newsletter box, and presence on every kind of page", async ({ page }) => {
    await expectOk(page, "/");
    const footer = page.getByRole("contentinfo");
    for (const link of FOOTER_LINKS) {
      await expect(footer.getByRole("link", { name: link.name, exact: true })).toHaveAttribute("href", link.href);
    }
    const email = footer.getByLabel("Your email", { exact: true });
    await expect(email).toBeVisible();
    await expect(email).toHaveAttribute("type", "email");
    await expect(footer.getByRole("button", { name: "Begin Your Journey", exact: true })).toBeVisible();

    // "Always shown": on a section, a form, a content page and the 404 page too.
    for (const path of ["/council", "/join", "/faq", "/no-such-page-for-footer"]) {
      await page.goto(path);
      await expect(page.getByRole("contentinfo").getByRole("button", { name: "Begin Your Journey" })).toBeVisible();
      await expect(page.getByRole("banner").getByRole("navigation", { name: "Main" })).toBeVisible();
    }
  });

  test("its links lead to real pages", async ({ page }) => {
    await gotoHydrated(page, "/");
    const footer = page.getByRole("contentinfo");
    await footer.getByRole("link", { name: "Our Manifesto", exact: true }).click();
    await expect(page).toHaveURL("/manifesto");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Our Manifesto");
    await footer.getByRole("link", { name: "Code of Conduct", exact: true }).click();
    await expect(page).toHaveURL("/code-of-conduct");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Code of Conduct");
  });
});

test.describe("home", () => {
  test("hero, value tiles, teasers, the Path of Growth and the closing call to action", async ({ page }) => {
    await expectOk(page, "/");
    await expect(page).toHaveTitle("Inner Peace. Outer Strength.");
    const main = page.getByRole("main");
    await expect(main.getByRole("heading", { level: 1 })).toHaveText("Inner Peace. Outer Strength.");
    await expect(main.getByRole("link", { name: "Enter The Monastery", exact: true })).toHaveAttribute("href", "/monastery");
    await expect(main.getByRole("link", { name: "Join The Battlefield", exact: true })).toHaveAttribute("href", "/battlefield");

    const values = main.getByRole("region", { name: "Our values" });
    await expect(values.getByRole("heading", { level: 3 })).toHaveText(["Mindfulness", "Action", "Wisdom", "Discipline"]);

    for (const heading of ["From the Monastery", "From the Battlefield", "Featured Discussions", "The Path of Growth", "From the Forge", "From the Council"]) {
      await expect(main.getByRole("heading", { name: heading, exact: true, level: 2 })).toBeVisible();
    }

    // Teasers are filled from the database.
    const monastery = main.getByRole("region", { name: "From the Monastery" });
    await expect(monastery.getByRole("link", { name: /^Explore / })).toHaveCount(3);
    await expect(monastery.getByRole("link", { name: "Explore Morning Meditation", exact: true })).toHaveAttribute("href", "/monastery/morning-meditation");
    const battlefield = main.getByRole("region", { name: "From the Battlefield" });
    await expect(battlefield.getByRole("link", { name: /^Explore / })).toHaveCount(3);
    await expect(battlefield.getByRole("link", { name: "Explore Strength Training", exact: true })).toHaveAttribute("href", "/battlefield/strength-training");
    await expect(main.getByRole("region", { name: "Featured Discussions" }).getByRole("heading", { level: 3 })).not.toHaveCount(0);
    await expect(main.getByRole("region", { name: "From the Forge" }).getByRole("link", { name: /^View Creation: / })).not.toHaveCount(0);
    await expect(main.getByRole("region", { name: "From the Council" }).getByRole("link", { name: /^View Question: / })).not.toHaveCount(0);

    // The Path of Growth: the seed's seven ranks and six virtues, in order, with their descriptions.
    const path = main.getByRole("region", { name: "The Path of Growth" });
    const [rankList, virtueList] = [path.getByRole("list").nth(0), path.getByRole("list").nth(1)];
    await expect(rankList.getByRole("listitem")).toHaveCount(7);
    for (const [i, rank] of RANKS.entries()) {
      const item = rankList.getByRole("listitem").nth(i);
      await expect(item.getByText(rank.label, { exact: true })).toBeVisible();
      await expect(item.getByText(rank.description, { exact: true })).toBeVisible();
    }
    await expect(virtueList.getByRole("listitem")).toHaveCount(6);
    for (const [i, virtue] of VIRTUES.entries()) {
      const item = virtueList.getByRole("listitem").nth(i);
      await expect(item.getByText(virtue.label, { exact: true })).toBeVisible();
      await expect(item.getByText(virtue.description, { exact: true })).toBeVisible();
    }

    // Seed §3: wisdom, discipline and compassion in the monk colour, the rest in the warrior colour.
    const colourOf = async (label: string) => virtueList.getByText(label, { exact: true }).evaluate((el) => getComputedStyle(el).color);
    const monk = await Promise.all(["Wisdom", "Discipline", "Compassion"].map(colourOf));
    const warrior = await Promise.all(["Courage", "Honor", "Resilience"].map(colourOf));
    expect(new Set(monk).size, `monk colours: ${monk}`).toBe(1);
    expect(new Set(warrior).size, `warrior colours: ${warrior}`).toBe(1);
    expect(monk[0]).not.toBe(warrior[0]);

    await expect(main.getByRole("link", { name: "Join the Path", exact: true })).toHaveAttribute("href", "/join");
  });

  test("the Forge teaser's text-only cards keep their own height beside the picture's card (issue 26 item 12)", async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await expectOk(page, "/");
    const cards = page.getByRole("region", { name: "From the Forge" }).locator("[data-slot=card]");
    await expect(cards).toHaveCount(3);
    const heights = await cards.evaluateAll((all) =>
      all.map((card) => ({ image: card.querySelector("img") !== null, height: card.getBoundingClientRect().height })),
    );
    // The demo's three newest creations share one row, one of them a picture (Enso Series).
    const tallest = Math.max(...heights.map((c) => c.height));
    const textOnly = heights.filter((c) => !c.image);
    expect(heights.some((c) => c.image)).toBe(true);
    expect(textOnly.length).toBeGreaterThan(0);
    for (const card of textOnly) expect(card.height, "a text-only card stretched to the picture card's height").toBeLessThan(tallest - 100);
  });

  test("the closing call to action leads to the join screen", async ({ page }) => {
    await gotoHydrated(page, "/");
    await page.getByRole("main").getByRole("link", { name: "Join the Path", exact: true }).click();
    await expect(page).toHaveURL("/join");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Join the Path");
  });

  test("the hero buttons lead to the two sections", async ({ page }) => {
    await gotoHydrated(page, "/");
    await page.getByRole("link", { name: "Enter The Monastery", exact: true }).click();
    await expect(page).toHaveURL("/monastery");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("The Monastery");
    await page.goBack();
    await page.getByRole("link", { name: "Join The Battlefield", exact: true }).click();
    await expect(page).toHaveURL("/battlefield");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("The Battlefield");
  });
});

for (const [section, info] of Object.entries(SECTIONS)) {
  test.describe(info.heading, () => {
    test("featured discussions, six topics with counts and Explore, and Create New Topic", async ({ page }) => {
      await expectOk(page, `/${section}`);
      const main = page.getByRole("main");
      await expect(main.getByRole("heading", { level: 1 })).toHaveText(info.heading);

      const featured = main.getByRole("region", { name: "Featured Discussions" });
      await expect(featured.getByRole("heading", { name: "Featured Discussions", level: 2 })).toBeVisible();
      await expect(featured.getByRole("heading", { level: 3 })).not.toHaveCount(0);

      const topics = main.getByRole("region", { name: "Topics" });
      await expect(topics.getByRole("link", { name: /^Explore / })).toHaveCount(6);
      for (const topic of info.topics) {
        const card = cardOf(topics, topic.title);
        const explore = card.getByRole("link", { name: `Explore ${topic.title}`, exact: true });
        await expect(explore).toHaveText("Explore");
        await expect(explore).toHaveAttribute("href", `/${section}/${topic.id}`);
        await expect(card.getByText(`${topic.posts} posts`, { exact: true })).toBeVisible();
        await expect(card.getByText(`${topic.members} members`, { exact: true })).toBeVisible();
      }

      // 'Create New Topic' leads a visitor to sign in first, and says which rank unlocks it.
      const create = main.getByRole("link", { name: "Create New Topic", exact: true });
      await expect(create).toHaveAttribute("href", `/signin?redirectTo=${encodeURIComponent(`/${section}/new`)}`);
      await expect(main.getByText("Creating topics unlocks at the Disciple rank (150 XP).", { exact: true })).toBeVisible();
    });

    test("Explore opens each topic page", async ({ page }) => {
      await gotoHydrated(page, `/${section}`);
      const first = info.topics[0];
      await page.getByRole("link", { name: `Explore ${first.title}`, exact: true }).click();
      await expect(page).toHaveURL(`/${section}/${first.id}`);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(first.title);
      await expect(page.getByRole("heading", { name: "Discussions", level: 2 })).toBeVisible();

      for (const topic of info.topics) {
        await expectOk(page, `/${section}/${topic.id}`);
        await expect(page.getByRole("heading", { level: 1 })).toHaveText(topic.title);
        await expect(
          page.getByRole("main").getByText(new RegExp(`· ${topic.posts} posts \\(\\d+ discussions?, \\d+ repl(y|ies)\\) · ${topic.members} members`)),
        ).toBeVisible();
      }
    });
  });
}

test.describe("Forge", () => {
  test("four category tiles with counts, five creations and Share Your Creation", async ({ page }) => {
    await expectOk(page, "/forge");
    const main = page.getByRole("main");
    await expect(main.getByRole("heading", { level: 1 })).toHaveText("The Forge");
    await expect(main.getByRole("link", { name: "Share Your Creation", exact: true })).toBeVisible();

    const categories = main.getByRole("region", { name: "Categories" });
    await expect(categories.getByRole("link")).toHaveCount(4);
    for (const c of FORGE_CATEGORIES) {
      const tile = categories.getByRole("link", { name: new RegExp(`^${escapeRegExp(c.label)} `) });
      await expect(tile).toHaveAttribute("href", `/forge?type=${c.type}`);
      await expect(tile.getByText(c.label, { exact: true })).toBeVisible();
      await expect(tile.getByText(`${c.count} ${c.count === 1 ? "creation" : "creations"}`, { exact: true })).toBeVisible();
    }

    const views = main.getByRole("link", { name: /^View Creation: / });
    await expect(views).toHaveCount(5);
    for (const title of CREATIONS) {
      const link = main.getByRole("link", { name: `View Creation: ${title}`, exact: true });
      await expect(link).toHaveText("View Creation");
      await expect(cardOf(main, title)).toBeVisible();
    }
  });

  test("category tiles filter the creations", async ({ page }) => {
    await gotoHydrated(page, "/forge");
    const main = page.getByRole("main");
    await main
      .getByRole("region", { name: "Categories" })
      .getByRole("link", { name: /^Writing / })
      .click();
    await expect(page).toHaveURL("/forge?type=writing");
    await expect(main.getByRole("heading", { name: "Writing", level: 2, exact: true })).toBeVisible();
    await expect(main.getByRole("link", { name: /^View Creation: / })).toHaveCount(2);
    await expect(main.getByRole("link", { name: /^Writing / })).toHaveAttribute("aria-current", "page");

    for (const c of FORGE_CATEGORIES) {
      await expectOk(page, `/forge?type=${c.type}`);
      await expect(main.getByRole("heading", { name: c.label, level: 2, exact: true })).toBeVisible();
      await expect(main.getByRole("link", { name: /^View Creation: / })).toHaveCount(c.count);
    }
  });

  test("View Creation opens each creation", async ({ page }) => {
    await gotoHydrated(page, "/forge");
    await page.getByRole("link", { name: `View Creation: ${CREATIONS[0]}`, exact: true }).click();
    await expect(page).toHaveURL(/\/forge\/\d+$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(CREATIONS[0]);

    await page.goto("/forge");
    const hrefs: [string, string][] = [];
    for (const title of CREATIONS) {
      hrefs.push([title, (await page.getByRole("link", { name: `View Creation: ${title}`, exact: true }).getAttribute("href"))!]);
    }
    for (const [title, href] of hrefs) {
      expect(href).toMatch(/^\/forge\/\d+$/);
      await expectOk(page, href);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
      await expect(page.getByRole("heading", { name: "Comments", level: 2 })).toBeVisible();
    }
  });

  test("a creation with one comment says '1 comment', not '1 comments'", async ({ page }) => {
    await page.goto("/forge");
    const href = await page.getByRole("link", { name: "View Creation: Ten Breaths", exact: true }).getAttribute("href");
    await expectOk(page, href!);
    await expect(page.getByRole("main").getByText(/^\s*1 comment\s*$/)).toBeVisible();
  });
});

test.describe("Council", () => {
  test("actions, three featured advisors and five recent questions", async ({ page }) => {
    await expectOk(page, "/council");
    const main = page.getByRole("main");
    await expect(main.getByRole("heading", { level: 1 })).toHaveText("The Council");
    for (const name of ["Ask a Question", "Browse by Topic", "View Unanswered"]) {
      await expect(main.getByRole("link", { name, exact: true })).toBeVisible();
    }
    await expect(main.getByRole("link", { name: "Ask a Question", exact: true })).toHaveAttribute("href", "/council/ask");

    const advisors = main.getByRole("region", { name: "Featured Advisors" });
    await expect(advisors.getByRole("heading", { level: 3 })).toHaveCount(3);
    for (const name of ADVISORS) {
      const card = cardOf(advisors, name);
      await expect(card).toBeVisible();
      await expect(card.getByText(/^Verified (monk|warrior) advisor$/)).toBeVisible();
      await expect(card.getByText(/^\d+ questions? answered$/)).toBeVisible();
    }

    const questions = main.getByRole("region", { name: "Recent Questions" });
    await expect(questions.getByRole("link", { name: /^View Question: / })).toHaveCount(5);
    for (const title of QUESTIONS) {
      const link = questions.getByRole("link", { name: `View Question: ${title}`, exact: true });
      await expect(link).toHaveText("View Question");
      await expect(link).toHaveAttribute("href", /^\/council\/\d+$/);
    }
  });

  test("View Question opens each question with its answers", async ({ page }) => {
    await gotoHydrated(page, "/council");
    await page.getByRole("link", { name: `View Question: ${QUESTIONS[0]}`, exact: true }).click();
    await expect(page).toHaveURL(/\/council\/\d+$/);
    const main = page.getByRole("main");
    await expect(main.getByRole("heading", { level: 1 })).toHaveText(QUESTIONS[0]);
    const answers = main.getByRole("region", { name: "2 Answers" });
    await expect(answers.getByRole("listitem")).toHaveCount(2);
    // The accepted answer comes from a verified advisor; so does the other one in the demo.
    const accepted = answers.getByRole("listitem").filter({ hasText: "Accepted answer" });
    await expect(accepted).toHaveCount(1);
    await expect(accepted.getByText("Accepted answer", { exact: true })).toBeVisible();
    await expect(accepted.getByText(/^Verified advisor · Warrior · /)).toBeVisible();
    await expect(answers.getByText(/^Verified advisor · /)).toHaveCount(2);

    await page.goto("/council");
    const hrefs: [string, string][] = [];
    for (const title of QUESTIONS) {
      hrefs.push([title, (await page.getByRole("link", { name: `View Question: ${title}`, exact: true }).getAttribute("href"))!]);
    }
    for (const [title, href] of hrefs) {
      await expectOk(page, href);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
      await expect(page.getByRole("heading", { name: /^\d+ Answers?$/, level: 2 })).toBeVisible();
    }
  });
});

test.describe("Join screen", () => {
  test("heading, subtitle, card, fields, interests, terms, button and sign-in link", async ({ page }) => {
    await expectOk(page, "/join");
    const main = page.getByRole("main");
    await expect(main.getByRole("heading", { level: 1 })).toHaveText("Join the Path");
    await expect(main.getByText("Begin your journey toward inner peace and outer strength.", { exact: true })).toBeVisible();
    await expect(main.getByRole("heading", { name: "Create Your Account", exact: true })).toBeVisible();

    for (const label of ["Full Name", "Email", "Password", "Confirm Password"]) {
      await expect(main.getByLabel(label, { exact: true })).toBeVisible();
    }
    await expect(main.getByLabel("Email", { exact: true })).toHaveAttribute("type", "email");
    await expect(main.getByLabel("Password", { exact: true })).toHaveAttribute("type", "password");
    await expect(main.getByLabel("Confirm Password", { exact: true })).toHaveAttribute("type", "password");
    // Password and Confirm Password sit side by side.
    const passwordBox = (await main.getByLabel("Password", { exact: true }).boundingBox())!;
    const confirmBox = (await main.getByLabel("Confirm Password", { exact: true }).boundingBox())!;
    expect(Math.abs(passwordBox.y - confirmBox.y)).toBeLessThan(2);
    expect(confirmBox.x).toBeGreaterThan(passwordBox.x + passwordBox.width);
    const bio = main.getByLabel("Bio (optional)", { exact: true });
    await expect(bio).toBeVisible();
    expect(await bio.evaluate((el) => el.tagName)).toBe("TEXTAREA");

    const interests = main.getByRole("group", { name: "Your Primary Interests" });
    await expect(interests.getByRole("checkbox")).toHaveCount(4);
    for (const name of ["Meditation & Inner Peace", "Fitness & Strength", "Philosophy & Wisdom", "Creative Expression"]) {
      await expect(interests.getByRole("checkbox", { name, exact: true })).not.toBeChecked();
    }

    const terms = main.getByRole("checkbox", { name: "I agree to the Terms of Service and Privacy Policy", exact: true });
    await expect(terms).not.toBeChecked();
    await expect(main.getByRole("link", { name: "Terms of Service", exact: true })).toHaveAttribute("href", "/terms");
    await expect(main.getByRole("link", { name: "Privacy Policy", exact: true })).toHaveAttribute("href", "/privacy");

    await expect(main.getByRole("button", { name: "Join the Movement", exact: true })).toBeEnabled();
    await expect(main.getByText("Already a member? Sign in", { exact: true })).toBeVisible();
    await expect(main.getByRole("link", { name: "Sign in", exact: true })).toHaveAttribute("href", "/signin");
    for (const label of ["Full Name", "Email", "Password", "Confirm Password"]) {
      await expect(main.getByLabel(label, { exact: true })).toHaveValue("");
    }
  });
});

test.describe("Sign-in screen", () => {
  test("heading, card, fields, Remember me, Forgot password?, button and join link", async ({ page }) => {
    await expectOk(page, "/signin");
    const main = page.getByRole("main");
    await expect(main.getByRole("heading", { level: 1 })).toHaveText("Welcome Back");
    await expect(main.getByRole("heading", { name: "Sign In", exact: true, level: 2 })).toBeVisible();
    await expect(main.getByText("Enter your credentials to access your account", { exact: true })).toBeVisible();
    await expect(main.getByLabel("Email", { exact: true })).toHaveAttribute("type", "email");
    await expect(main.getByLabel("Password", { exact: true })).toHaveAttribute("type", "password");
    await expect(main.getByRole("checkbox", { name: "Remember me", exact: true })).not.toBeChecked();
    await expect(main.getByRole("link", { name: "Forgot password?", exact: true })).toHaveAttribute("href", "/forgot-password");
    await expect(main.getByRole("button", { name: "Sign In", exact: true })).toBeEnabled();
    await expect(main.getByText("Don't have an account? Join the path", { exact: true })).toBeVisible();
    await expect(main.getByRole("link", { name: "Join the path", exact: true })).toHaveAttribute("href", "/join");
  });

  test("'Join the path' leads to the join screen", async ({ page }) => {
    await gotoHydrated(page, "/signin");
    await page.getByRole("main").getByRole("link", { name: "Join the path", exact: true }).click();
    await expect(page).toHaveURL("/join");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Join the Path");
    await page.getByRole("main").getByRole("link", { name: "Sign in", exact: true }).click();
    await expect(page).toHaveURL("/signin");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Welcome Back");
  });
});

test.describe("content pages", () => {
  for (const { path, h1 } of CONTENT_PAGES) {
    test(`${path} has one h1`, async ({ page }) => {
      await expectOk(page, path);
      await expect(page.getByRole("heading", { level: 1 })).toHaveCount(1);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(h1);
    });
  }
});

test.describe("not found", () => {
  test("an unknown path: status 404, the seed's texts, the console log and 'Return to Home'", async ({ page }) => {
    const path = `/no-such-path-${Date.now()}`;
    const messages: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") messages.push(message.text());
    });
    const response = await page.goto(path);
    expect(response?.status()).toBe(404);
    const main = page.getByRole("main");
    await expect(main.getByRole("heading", { level: 1 })).toHaveText("404");
    await expect(main.getByText("Oops! Page not found", { exact: true })).toBeVisible();
    await waitForHydration(page);
    await expect.poll(() => messages).toContain(`404 Error: User attempted to access non-existent route: ${path}`);

    const home = main.getByRole("link", { name: "Return to Home", exact: true });
    await expect(home).toHaveAttribute("href", "/");
    await home.click();
    await expect(page).toHaveURL("/");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Inner Peace. Outer Strength.");
  });

  for (const path of ["/monastery/no-such-topic", "/battlefield/morning-meditation", "/forge/999999", "/council/not-a-number", "/a/b/c"]) {
    test(`${path} is a 404 too`, async ({ page }) => {
      const response = await page.goto(path);
      expect(response?.status()).toBe(404);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("404");
      await expect(page.getByText("Oops! Page not found", { exact: true })).toBeVisible();
      await expect(page.getByRole("link", { name: "Return to Home", exact: true })).toHaveAttribute("href", "/");
    });
  }
});

test.describe("fallback error screen", () => {
  test("a page whose data cannot be loaded shows 'Unexpected Application Error!'", async ({ page }) => {
    await gotoHydrated(page, "/");
    // The network fails while the browser fetches the next page's data.
    await page.route(
      (url) => url.pathname === "/forge.data",
      (route) => route.abort(),
    );
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Forge", exact: true }).click();
    const main = page.getByRole("main");
    await expect(main.getByRole("heading", { level: 1 })).toHaveText("Unexpected Application Error!");
    await expect(main.getByRole("link", { name: "Return to Home", exact: true })).toHaveAttribute("href", "/");
    // Navigation and footer stay around the error.
    await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();
    await expect(page.getByRole("contentinfo")).toBeVisible();
  });
});

test.describe("security headers", () => {
  test("a page answering a form post comes with a nonce-based CSP, nosniff and a referrer policy", async ({ page, baseURL }) => {
    // A page asked for with GET is rendered for the page cache, its inline scripts named by hash
    // (ADR 0026, 0040; page-cache.spec.ts hydrates such pages); a document answering a form post is
    // rendered once, with a fresh nonce. A join with nothing filled in is refused before anything
    // is counted or written.
    const post = () => page.request.post("/join", { form: { fullName: "" }, headers: { origin: new URL(baseURL!).origin } });
    const response = await post();
    expect(response.status()).toBe(400);
    const headers = response.headers();
    const csp = headers["content-security-policy"];
    expect(csp).toBeTruthy();
    const nonce = csp.match(/script-src[^;]*'nonce-([A-Za-z0-9+/=]+)'/)?.[1];
    expect(nonce, `a script-src nonce in: ${csp}`).toBeTruthy();
    expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    expect(csp).not.toMatch(/'sha256-/);
    expect(headers["x-content-type-options"]).toBe("nosniff");
    expect(headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");

    // Every script in the page carries that nonce, so the browser runs them under the policy.
    const html = await response.text();
    const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map(([tag]) => tag);
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);

    // Each response gets its own nonce.
    const again = await post();
    const nonce2 = again.headers()["content-security-policy"].match(/'nonce-([^']+)'/)?.[1];
    expect(nonce2).toBeTruthy();
    expect(nonce2).not.toBe(nonce);
  });
});
