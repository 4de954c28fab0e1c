import { randomInt } from "node:crypto";
import AxeBuilder from "@axe-core/playwright";
import { test as base, expect, type APIRequestContext, type Cookie, type Page } from "@playwright/test";
import { HYDRATION_HOOK, hydrated } from "../../../scripts/hydration-hook.js";

/** Shared fixtures for the browser suite. Hydration is awaited as scripts/hydration-hook.js says. */

/**
 * Every test is a visitor of its own address. The site allows 5 joins an hour per IP (PRODUCT.md
 * §7) and the suite joins far more than that from one machine, so each test's requests (its page,
 * `request` and any context it opens) carry an X-Forwarded-For of their own, which the server
 * honours from loopback as it does behind a real proxy (TRUST_PROXY, default loopback). The limit
 * itself stays on; tests/integration/site-limits.test.ts holds it to 5.
 */
function visitorAddress() {
  const octet = () => randomInt(1, 255);
  return `10.${octet()}.${octet()}.${octet()}`;
}

export const test = base.extend({
  extraHTTPHeaders: async ({ extraHTTPHeaders }, use) => {
    await use({ ...extraHTTPHeaders, "x-forwarded-for": visitorAddress() });
  },
  page: async ({ page }, use) => {
    await page.addInitScript({ content: HYDRATION_HOOK });
    await use(page);
  },
});

export { expect };

/** Resolves once React has hydrated the current document. */
export async function waitForHydration(page: Page) {
  await page.waitForFunction(hydrated);
}

/** Loads a page and waits until React owns it, for tests of client-side behaviour. */
export async function gotoHydrated(page: Page, path: string) {
  const response = await page.goto(path);
  await waitForHydration(page);
  return response;
}

/** A fresh address for every account the suite creates: the server keeps state for the whole run. */
export function uniqueEmail(tag = "e2e") {
  return `${tag}-${Date.now()}-${Math.random().toString(36).slice(2, 10)}@example.org`;
}

/** Meets every password rule of the seed: 8+ characters, an uppercase letter, a digit. */
export const PASSWORD = "Stillness42Strong";

export interface Member {
  name: string;
  email: string;
  password: string;
}

export function newMember(name = "Ada Lovelace"): Member {
  return { name, email: uniqueEmail(), password: PASSWORD };
}

/**
 * Creates an account by posting the join form the way a browser without JavaScript does. With
 * `page.request` the session cookie lands in the page's context (signed in); with the standalone
 * `request` fixture the browser stays signed out.
 */
export async function createMember(request: APIRequestContext, member: Member = newMember()) {
  const response = await request.post("/join", {
    form: {
      fullName: member.name,
      email: member.email,
      password: member.password,
      confirmPassword: member.password,
      termsAccepted: "on",
    },
  });
  expect(response.status(), "joining through the form post").toBe(200);
  expect(await response.text()).toContain("Registration Successful!");
  return member;
}

/**
 * Holds the page's form POSTs to paths starting with `pathPrefix` (React Router posts to
 * "/join.data" or "/join?_data") for `ms` milliseconds, so the busy state can be observed.
 * This is the only deliberate wait in the suite.
 */
export async function delayPosts(page: Page, pathPrefix: string, ms = 1500) {
  await page.route(
    (url) => url.pathname.startsWith(pathPrefix),
    async (route) => {
      if (route.request().method() !== "POST") return route.fallback();
      await new Promise((resolve) => setTimeout(resolve, ms));
      await route.fallback();
    },
  );
}

/** Counts the POST requests the page sends to paths starting with `pathPrefix`. */
export function countPosts(page: Page, pathPrefix: string) {
  const counter = { count: 0 };
  page.on("request", (request) => {
    if (request.method() === "POST" && new URL(request.url()).pathname.startsWith(pathPrefix)) counter.count += 1;
  });
  return counter;
}

/** Fills the sign-in form (already loaded) and submits it. */
export async function submitSignIn(page: Page, email: string, password: string, options: { remember?: boolean } = {}) {
  const main = page.getByRole("main");
  await main.getByLabel("Email", { exact: true }).fill(email);
  await main.getByLabel("Password", { exact: true }).fill(password);
  if (options.remember) await main.getByRole("checkbox", { name: "Remember me" }).check();
  await main.getByRole("button", { name: "Sign In", exact: true }).click();
}

export const SESSION_COOKIE = "ipos.session_token";

const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];
const BLOCKING = new Set(["serious", "critical"]);

/**
 * axe-core over the page as React left it, with the WCAG 2.0/2.1 A and AA rules. A violation of
 * impact "serious" or "critical" fails the test; its rule, help text and elements are listed.
 */
export async function expectNoSeriousViolations(page: Page) {
  await waitForHydration(page);
  const results = await new AxeBuilder({ page }).withTags(AXE_TAGS).analyze();
  const blocking = results.violations.filter((v) => v.impact && BLOCKING.has(v.impact));
  const report = blocking
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help}\n` +
        v.nodes.map((n) => `    - ${n.target.join(" ")}${n.failureSummary ? `\n      ${n.failureSummary.replace(/\n/g, "\n      ")}` : ""}`).join("\n"),
    )
    .join("\n");
  expect(blocking, `serious or critical axe violations on ${page.url()}:\n${report}`).toEqual([]);
}

/**
 * The oldest question listed on /council (demo content). Opening a question counts a view, and the
 * view-count journey in council.spec.ts asks a question of its own that is newest while it runs:
 * other specs open this one instead of "the first card", so they never add to that count.
 */
export async function oldestQuestionLink(page: Page) {
  await page.goto("/council");
  const links = page.getByRole("link", { name: /^View Question: / });
  const hrefs = await links.evaluateAll((all) => all.map((a) => a.getAttribute("href")!));
  const oldest = hrefs.reduce((a, b) => (Number(a.split("/").pop()) <= Number(b.split("/").pop()) ? a : b));
  return page.locator(`a[href="${oldest}"]`).filter({ hasText: "View Question" }).first();
}

/**
 * Where a link on the page at `path` leads: the one link named `name`, or the first of the links a
 * pattern names (the first card of a list).
 */
export async function linkTarget(page: Page, path: string, name: string | RegExp) {
  await page.goto(path);
  const links = page.getByRole("link", { name });
  return (await (typeof name === "string" ? links : links.first()).getAttribute("href"))!;
}

/** A member with the browser's cookies after joining, so a test can switch between several people. */
export type Actor = Member & { cookies: Cookie[] };

/** Joins as a new member in this page's browser context and keeps that member's cookies. */
export async function joinAs(page: Page, name: string): Promise<Actor> {
  await page.context().clearCookies();
  const member = await createMember(page.request, newMember(name));
  return { ...member, cookies: await page.context().cookies() };
}

/** Continues as this member (or signed out, with null). */
export async function actAs(page: Page, actor: Actor | null) {
  await page.context().clearCookies();
  if (actor) await page.context().addCookies(actor.cookies);
}
