import type { APIRequestContext, Page } from "@playwright/test";
import {
  actAs,
  countPosts,
  createMember,
  expect,
  expectNoSeriousViolations,
  gotoHydrated,
  joinAs,
  newMember,
  oldestQuestionLink,
  submitSignIn,
  test,
  waitForHydration,
} from "./support/fixtures";
import { grantXp, makeAdmin } from "./support/database";

/*
 * Issue 4's journey through the Council in the browser: asking (with validation), answering,
 * verified advisors, accepting, helpful votes and the order they give, the unanswered and virtue
 * views, view counts, the signed-out and non-admin paths, and an axe scan of the new screens.
 *
 * Roles and XP cannot be earned through the UI in a test's time: support/database.ts sets them up
 * in the server's database, on either engine.
 */

// ------------------------------------------------------------------ several members, one browser page

/**
 * Each member's session lives in their cookies. Swapping the cookies of the one page switches who
 * is browsing, so every page load still goes through the fixture's hydration hook.
 */
/** A title no other run or test shares. */
function uniqueTitle(text: string) {
  return `${text} ${Math.random().toString(36).slice(2, 8)}`;
}

// ------------------------------------------------------------------ posting the forms without a browser

/** Posts the ask form as a browser without JavaScript does; returns the new question's id. */
async function askByForm(request: APIRequestContext, question: { title: string; body: string; virtues: string[] }) {
  const form = new URLSearchParams({ title: question.title, body: question.body, submissionKey: crypto.randomUUID() });
  for (const virtue of question.virtues) form.append("virtues", virtue);
  const response = await request.post("/council/ask", {
    headers: { "content-type": "application/x-www-form-urlencoded" },
    data: form.toString(),
    maxRedirects: 0,
  });
  expect(response.status(), "asking through the form post").toBe(302);
  const id = response.headers()["location"]?.match(/\/council\/(\d+)$/)?.[1];
  expect(id, `redirect after asking: ${response.headers()["location"]}`).toBeTruthy();
  return Number(id);
}

async function answerByForm(request: APIRequestContext, questionId: number, body: string) {
  const response = await request.post(`/council/${questionId}`, {
    form: { intent: "answer", body, submissionKey: crypto.randomUUID() },
    maxRedirects: 0,
  });
  expect(response.status(), "answering through the form post").toBe(302);
}

// ------------------------------------------------------------------ page parts

/** The answers, in the order the page shows them. */
function answerItems(page: Page) {
  return page.getByRole("region", { name: /^\d+ Answers?$/ }).getByRole("listitem");
}

function answerWith(page: Page, text: string) {
  return answerItems(page).filter({ hasText: text });
}

const HELPFUL_LOCKED = "Marking answers helpful unlocks at the Acolyte rank (50 XP).";

// ------------------------------------------------------------------ the journey

test("ask, answer, verify an advisor, accept, vote helpful: the Council's order follows", async ({ page }) => {
  // Five members and some twenty page loads: 24-27 s on a busy two-core machine on either engine,
  // too close to the suite's 30 s.
  test.setTimeout(60_000);
  // 1. A member asks. Validation runs on submit, then on each change.
  const asker = await joinAs(page, "Asha Asker");
  await gotoHydrated(page, "/council/ask");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Ask a Question");
  const main = page.getByRole("main");
  const posts = countPosts(page, "/council/ask");
  await main.getByLabel("Title", { exact: true }).fill("Short");
  await main.getByRole("button", { name: "Post Question" }).click();
  await expect(main.getByText("Title must be at least 8 characters", { exact: true })).toBeVisible();
  await expect(main.getByText("Write something before posting", { exact: true })).toBeVisible();
  await expect(main.getByText("Choose at least one virtue", { exact: true })).toBeVisible();
  await expect(main.getByLabel("Title", { exact: true })).toHaveAttribute("aria-invalid", "true");
  expect(posts.count, "an invalid form is not posted").toBe(0);

  const title = uniqueTitle("How do I keep training when fear of injury returns?");
  await main.getByLabel("Title", { exact: true }).fill(title);
  await expect(main.getByText("Title must be at least 8 characters")).toBeHidden();
  await main.getByLabel("Your question", { exact: true }).fill("I hurt my back last spring. Now I *freeze* before heavy sets.");
  await expect(main.getByText("Write something before posting")).toBeHidden();
  const virtue = (label: string) => main.getByRole("checkbox", { name: label, exact: true });
  await virtue("Courage").check();
  await expect(main.getByText("Choose at least one virtue")).toBeHidden();
  await virtue("Wisdom").check();
  await virtue("Honor").check();
  await virtue("Resilience").check();
  await expect(main.getByText("Choose at most three virtues", { exact: true })).toBeVisible();
  await virtue("Honor").uncheck();
  await virtue("Resilience").uncheck();
  await expect(main.getByText("Choose at most three virtues")).toBeHidden();
  await main.getByRole("button", { name: "Post Question" }).click();

  await expect(page).toHaveURL(/\/council\/\d+$/);
  const questionUrl = new URL(page.url()).pathname;
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
  await expect(page.locator("em", { hasText: "freeze" })).toBeVisible();
  const virtueLinks = page.getByRole("link", { name: /^Questions on / });
  await expect(virtueLinks).toHaveCount(2);
  await expect(page.getByRole("link", { name: "Questions on Courage", exact: true })).toHaveText("Courage");
  await expect(page.getByRole("link", { name: "Questions on Wisdom", exact: true })).toHaveText("Wisdom");
  await expect(page.getByRole("heading", { name: "0 Answers" })).toBeVisible();

  // 2. Another member, still at 0 XP, answers; voting is locked for them.
  const helper = await joinAs(page, "Rui Helper");
  await gotoHydrated(page, questionUrl);
  await expect(page.getByText(HELPFUL_LOCKED, { exact: true })).toBeVisible();
  const helperText = "Start with half the weight and film every set. Trust comes back rep by rep.";
  await page.getByLabel("Your answer", { exact: true }).fill(helperText);
  await page.getByRole("button", { name: "Post Answer" }).click();
  await expect(answerWith(page, helperText)).toBeVisible();
  await expect(page.getByRole("heading", { name: "1 Answer", exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: "Mark helpful" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Accept this answer" })).toHaveCount(0);

  // An admin (made so in the database) verifies a third member as an advisor.
  const advisor = await joinAs(page, "Mara Advisor");
  const admin = await joinAs(page, "Ines Admin");
  await makeAdmin(admin.email);
  await gotoHydrated(page, "/admin/advisors");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Advisors");
  const specialty = "Strength rehab and fear of lifting";
  await main.getByLabel("Member's email", { exact: true }).fill(advisor.email);
  await main.getByRole("radio", { name: "Warrior", exact: true }).check();
  await main.getByLabel("Specialty", { exact: true }).fill(specialty);
  await main.getByRole("button", { name: "Grant advisor role" }).click();
  await expect(main.getByText(`${advisor.email} · Warrior · ${specialty}`, { exact: true })).toBeVisible();

  // The advisor answers; the answer carries the verified mark.
  await actAs(page, advisor);
  await gotoHydrated(page, questionUrl);
  const advisorText = "Fear after injury is information. Rebuild the pattern with tempo work first.";
  await page.getByLabel("Your answer", { exact: true }).fill(advisorText);
  await page.getByRole("button", { name: "Post Answer" }).click();
  await expect(answerWith(page, advisorText)).toBeVisible();
  await expect(answerWith(page, advisorText).getByText(`Verified advisor · Warrior · ${specialty}`, { exact: true })).toBeVisible();
  await expect(answerWith(page, helperText).getByText(/Verified advisor/)).toHaveCount(0);
  await expect(page.getByRole("heading", { name: "2 Answers", exact: true })).toBeVisible();

  // 3. The asker accepts the first answer: it leads, marked "Accepted answer".
  await actAs(page, asker);
  await gotoHydrated(page, questionUrl);
  await expect(answerItems(page)).toHaveCount(2);
  await expect(page.getByRole("button", { name: "Accept this answer" })).toHaveCount(2);
  await answerWith(page, helperText).getByRole("button", { name: "Accept this answer" }).click();
  await expect(answerItems(page).first()).toContainText("Accepted answer");
  await expect(answerItems(page).first()).toContainText(helperText);
  await expect(answerItems(page).nth(1)).toContainText(advisorText);
  await expect(answerItems(page).nth(1)).not.toContainText("Accepted answer");
  await expect(answerWith(page, helperText).getByRole("button", { name: "Unaccept" })).toBeVisible();

  // 4. A voter with 50 XP (Acolyte) marks the advisor's answer helpful; not the asker, no accept button.
  const voter = await joinAs(page, "Vera Voter");
  await grantXp(voter.email, 50);
  await gotoHydrated(page, questionUrl);
  await expect(page.getByText(HELPFUL_LOCKED)).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Accept this answer" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Unaccept" })).toHaveCount(0);
  await expect(answerWith(page, advisorText)).toContainText("0 helpful votes");
  await answerWith(page, advisorText).getByRole("button", { name: "Mark helpful" }).click();
  await expect(answerWith(page, advisorText)).toContainText("1 helpful vote");
  await expect(answerWith(page, advisorText).getByRole("button", { name: "Undo helpful" })).toBeVisible();
  // The accepted answer still leads.
  await expect(answerItems(page).first()).toContainText(helperText);
  await expect(answerItems(page).nth(1)).toContainText(advisorText);

  // The asker takes the acceptance back: the helpful answer comes first.
  await actAs(page, asker);
  await gotoHydrated(page, questionUrl);
  await answerWith(page, helperText).getByRole("button", { name: "Unaccept" }).click();
  await expect(page.getByText("Accepted answer")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Accept this answer" })).toHaveCount(2);
  await expect(answerItems(page).first()).toContainText(advisorText);
  await expect(answerItems(page).first()).toContainText("1 helpful vote");
  await expect(answerItems(page).nth(1)).toContainText(helperText);

  // The voter takes the vote back: both at 0, the older answer first again.
  await actAs(page, voter);
  await gotoHydrated(page, questionUrl);
  await answerWith(page, advisorText).getByRole("button", { name: "Undo helpful" }).click();
  await expect(answerWith(page, advisorText)).toContainText("0 helpful votes");
  await expect(answerWith(page, advisorText).getByRole("button", { name: "Mark helpful" })).toBeVisible();
  await expect(answerItems(page).first()).toContainText(helperText);
  await expect(answerItems(page).nth(1)).toContainText(advisorText);
  expect(helper.name).toBe("Rui Helper");
});

// ------------------------------------------------------------------ finding questions

test("the unanswered view and the virtue filter list only the questions that fit", async ({ page, request }) => {
  // The asker works through the standalone request context; the browser belongs to an answerer.
  await createMember(request, newMember("Otto Asker"));
  const open = uniqueTitle("Is cold exposure worth the fuss?");
  const answered = uniqueTitle("How long should a silent sit be?");
  const openId = await askByForm(request, { title: open, body: "Cold showers, ice baths: where to begin?", virtues: ["courage", "discipline"] });
  const answeredId = await askByForm(request, { title: answered, body: "Ten minutes feels short, an hour feels long.", virtues: ["wisdom"] });
  await createMember(page.request, newMember("Ula Answerer"));
  await answerByForm(page.request, answeredId, "Twenty minutes, every day, beats an hour on Sundays.");

  await gotoHydrated(page, "/council");
  await page.getByRole("link", { name: "View Unanswered" }).click();
  await expect(page).toHaveURL(/\/council\?view=unanswered#questions$/);
  const list = page.getByRole("region", { name: "Unanswered Questions" });
  await expect(list).toBeVisible();
  await expect(list.getByRole("link", { name: `View Question: ${open}` })).toBeVisible();
  await expect(list.getByRole("link", { name: `View Question: ${answered}` })).toHaveCount(0);
  const unansweredCards = await list.getByRole("link", { name: /^View Question: / }).count();
  await expect(list.getByText("0 answers", { exact: true })).toHaveCount(unansweredCards);
  expect(openId).not.toBe(answeredId);

  // Browse by Topic, then a virtue chip.
  await page.getByRole("link", { name: "Show all questions" }).click();
  await expect(page).toHaveURL(/\/council#questions$/);
  await page.getByRole("link", { name: "Browse by Topic" }).click();
  const topics = page.getByRole("navigation", { name: "Browse by topic" });
  await topics.getByRole("link", { name: "Courage", exact: true }).click();
  await expect(page).toHaveURL(/\/council\?virtue=courage#questions$/);
  await expect(topics.getByRole("link", { name: "Courage", exact: true })).toHaveAttribute("aria-current", "true");
  const onCourage = page.getByRole("region", { name: "Questions on Courage" });
  await expect(onCourage.getByRole("link", { name: `View Question: ${open}` })).toBeVisible();
  await expect(onCourage.getByRole("link", { name: `View Question: ${answered}` })).toHaveCount(0);
  // Every card listed carries the Courage badge.
  const courageCards = await onCourage.getByRole("link", { name: /^View Question: / }).count();
  expect(courageCards).toBeGreaterThan(1);
  await expect(onCourage.getByText("Courage", { exact: true })).toHaveCount(courageCards);
});

// ------------------------------------------------------------------ views

test("a question's view count rises once per visitor, not on reload", async ({ page, request }) => {
  // Asked without following the redirect, so the asker has not viewed it.
  await createMember(request, newMember("Vik Viewed"));
  const title = uniqueTitle("Counting breaths or counting reps?");
  const id = await askByForm(request, { title, body: "Which counting keeps you present?", virtues: ["discipline"] });
  // The count follows an icon and a space, which a regular expression sees.
  const views = page.getByText(/^\s*\d+ views?$/);

  // A new visitor (signed out): the page shows the count before their own view lands.
  await gotoHydrated(page, `/council/${id}`);
  await expect(views).toHaveText("0 views");
  /**
   * Reloads until the count reads `count` (the latest view has landed), then twice more: the same
   * visitor again adds no view (each reload would show one that a previous load added).
   */
  const expectViewsToSettleAt = async (count: string, message: string) => {
    await expect
      .poll(
        async () => {
          await page.reload();
          return (await views.textContent())?.trim();
        },
        { message },
      )
      .toBe(count);
    await page.reload();
    await expect(views).toHaveText(count);
    await page.reload();
    await expect(views).toHaveText(count);
  };
  await expectViewsToSettleAt("1 view", "the visitor's view is counted");

  // Another visitor, a member this time, adds exactly one more.
  await createMember(page.request, newMember("Nia Newcomer"));
  await expectViewsToSettleAt("2 views", "the member's view is counted");
});

// ------------------------------------------------------------------ who may do what

test("a signed-out visitor is asked to sign in to answer and comes back to the question", async ({ page, request }) => {
  const member = await createMember(request, newMember("Sol Signin"));
  const view = await oldestQuestionLink(page);
  await waitForHydration(page);
  const href = (await view.getAttribute("href"))!;
  expect(href).toMatch(/^\/council\/\d+$/);
  await view.click();
  await expect(page).toHaveURL(href);
  await expect(page.getByRole("textbox", { name: "Your answer", exact: true })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Mark helpful" })).toHaveCount(0);
  await page.getByRole("link", { name: "Sign in to answer" }).click();
  await expect(page).toHaveURL(/\/signin\?redirectTo=/);
  expect(new URL(page.url()).searchParams.get("redirectTo")).toBe(href);
  await submitSignIn(page, member.email, member.password);
  await expect(page).toHaveURL(href);
  await expect(page.getByLabel("Your answer", { exact: true })).toBeVisible();
});

test("the server refuses what the page does not offer", async ({ request, browser }) => {
  // Posts as a browser without JavaScript would, so the action's own checks are what answers.
  const askerContext = await browser.newContext();
  const strangerContext = await browser.newContext();
  try {
    const asker = askerContext.request;
    const stranger = strangerContext.request;
    await createMember(asker, newMember("Ravi Refused"));
    await createMember(stranger, newMember("Sam Stranger"));

    const tooMany = new URLSearchParams({ title: "Four virtues at once, please", body: "Too many tags.", submissionKey: crypto.randomUUID() });
    for (const v of ["courage", "wisdom", "honor", "resilience"]) tooMany.append("virtues", v);
    const refused = await asker.post("/council/ask", {
      headers: { "content-type": "application/x-www-form-urlencoded" },
      data: tooMany.toString(),
      maxRedirects: 0,
    });
    expect(refused.status()).toBe(400);
    expect(await refused.text()).toContain("Choose at most three virtues");

    const id = await askByForm(asker, { title: uniqueTitle("Who may accept an answer?"), body: "Only me, I hope.", virtues: ["honor"] });
    await answerByForm(stranger, id, "Only the one who asked.");
    const html = await (await request.get(`/council/${id}`)).text();
    const answerId = html.match(/id="answer-(\d+)"/)?.[1];
    expect(answerId, "the answer's anchor on the page").toBeTruthy();

    // Someone else's question: no accepting.
    const accept = await stranger.post(`/council/${id}`, { form: { intent: "accept", answerId: answerId! }, maxRedirects: 0 });
    expect(accept.status()).toBe(403);
    expect(await accept.text()).toContain("Only the person who asked can accept an answer.");
    // 0 XP, and one's own answer: no helpful vote.
    const locked = await asker.post(`/council/${id}`, { form: { intent: "helpful", answerId: answerId! }, maxRedirects: 0 });
    expect(locked.status()).toBe(403);
    expect(await locked.text()).toContain(HELPFUL_LOCKED);
    const own = await stranger.post(`/council/${id}`, { form: { intent: "helpful", answerId: answerId! }, maxRedirects: 0 });
    expect(own.status()).toBe(403);
    expect(await own.text()).toContain("You cannot mark your own answer helpful.");
  } finally {
    await askerContext.close();
    await strangerContext.close();
  }
});

test("only admins manage advisors: a member gets 403, a visitor is sent to sign in", async ({ page }) => {
  const signedOut = await page.goto("/admin/advisors");
  expect(signedOut?.status()).toBe(200);
  await expect(page).toHaveURL(/\/signin\?redirectTo=%2Fadmin%2Fadvisors$/);

  await createMember(page.request, newMember("Nora Member"));
  const response = await page.goto("/admin/advisors");
  expect(response?.status()).toBe(403);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("403");
  await expect(page.getByText("Only admins can manage advisors.", { exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: "Grant advisor role" })).toHaveCount(0);
});

// ------------------------------------------------------------------ accessibility

test.describe("axe, the Council", () => {
  test("the ask form showing validation errors", async ({ page }) => {
    await createMember(page.request, newMember("Axe Asker"));
    await gotoHydrated(page, "/council/ask");
    const main = page.getByRole("main");
    await main.getByRole("checkbox", { name: "Discipline", exact: true }).check();
    await main.getByRole("checkbox", { name: "Courage", exact: true }).check();
    await main.getByRole("checkbox", { name: "Wisdom", exact: true }).check();
    await main.getByRole("checkbox", { name: "Honor", exact: true }).check();
    await main.getByRole("button", { name: "Post Question" }).click();
    await expect(main.getByText("Title must be at least 8 characters", { exact: true })).toBeVisible();
    await expect(main.getByText("Write something before posting", { exact: true })).toBeVisible();
    await expect(main.getByText("Choose at most three virtues", { exact: true })).toBeVisible();
    await expectNoSeriousViolations(page);
  });

  test("one's own question with answers, signed in", async ({ page, request }) => {
    await createMember(page.request, newMember("Axe Owner"));
    const id = await askByForm(page.request, {
      title: uniqueTitle("Where does patience come from?"),
      body: "Some days I have none.",
      virtues: ["wisdom", "compassion"],
    });
    await createMember(request, newMember("Axe Answerer"));
    await answerByForm(request, id, "From practising it when it is easy.");
    await gotoHydrated(page, `/council/${id}`);
    await expect(answerItems(page)).toHaveCount(1);
    await expect(page.getByRole("button", { name: "Accept this answer" })).toBeVisible();
    await expect(page.getByLabel("Your answer", { exact: true })).toBeVisible();
    await expectNoSeriousViolations(page);
  });
});
