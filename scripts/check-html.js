// `npm run check:html`: the Nu Html Checker and HTML_CodeSniffer (WCAG2AA) over every page of the built
// site, signed out, as a new member and as an admin. Prints each page's errors and exits 1 on any.
//   CHECK_HTML_BUILD=0   use the build already in build/ (CI: the browser stage just made it)
//   CHECK_HTML_PORT      port of the site it starts (3415)
//   CHECK_HTML_KEEP=1    keep the saved pages (their folder is printed)
import { execFile, execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { chromium, request } from "playwright-core";
import { chromiumPath } from "./chromium-path.js";
import { HYDRATION_HOOK, settled } from "./hydration-hook.js";

const require = createRequire(import.meta.url);
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const PORT = Number(process.env.CHECK_HTML_PORT ?? 3415);
const BASE = `http://localhost:${PORT}`;
/** Pages kept per address pattern: every route is covered without opening all 300 discussions. */
const PER_PATTERN = 2;
const MAX_PAGES_PER_VISITOR = 250;
/** Links that lead to no page to check (files, feeds, calendars) or that end the visitor's session. */
const SKIP = [/^\/media\//, /\.ics$/, /^\/settings\/export/, /^\/signout/, /^\/newsletter\//, /\.(xml|rss|json|txt|png|jpe?g|webp|wav|mp3)$/];
/** Form pages a visitor reaches by typing or by a button rather than a link, so they are asked for too. */
const SIGNED_OUT_START = ["/", "/join", "/signin", "/signin/email-link", "/signin/link", "/forgot-password", "/reset-password", "/no-such-page-here"];
const MEMBER_START = ["/dashboard", "/settings", "/council/ask", "/forge/new", "/challenges/new", "/challenges/proposals", "/events/new"];

const started = Date.now();
/** Each signed-in visitor's request context, whose cookies the browser takes over. */
const visitorContexts = new Map();
let fileNumber = 0;
const workDir = fs.mkdtempSync(path.join(os.tmpdir(), "ipos-check-html-"));
const dataDir = path.join(workDir, "data");
const pagesDir = path.join(workDir, "pages");
fs.mkdirSync(dataDir);
fs.mkdirSync(pagesDir);
const serverEnv = {
  ...process.env,
  PORT: String(PORT),
  DATA_DIR: dataDir,
  DATABASE_URL: "",
  BASE_URL: BASE,
  LOG_LEVEL: "warn",
  NODE_ENV: "production",
};

if (process.env.CHECK_HTML_BUILD !== "0") execFileSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" });

const server = spawn(process.execPath, ["server/index.js"], { cwd: root, env: serverEnv, stdio: ["ignore", "inherit", "inherit"] });
let browser;
const stop = () => {
  server.kill();
  if (process.env.CHECK_HTML_KEEP === "1") console.log(`Pages kept in ${pagesDir}`);
  else fs.rmSync(workDir, { recursive: true, force: true });
};

try {
  await waitForServer();
  const pages = [];
  const signedOut = await request.newContext({ baseURL: BASE });
  pages.push(...(await crawl("signed out", signedOut, SIGNED_OUT_START)));
  pages.push(await refusedJoin(signedOut));

  const member = await join("Html Check Member");
  visitorContexts.set("member", member.context);
  pages.push(...(await crawl("member", member.context, [...MEMBER_START, "/"])));

  // The admin is a member made admin by `npm run admin`, then signed in afresh so the session knows it.
  const admin = await join("Html Check Admin");
  execFileSync(process.execPath, ["--import", "tsx", "scripts/admin.ts", "grant", admin.email, "admin"], { cwd: root, env: serverEnv, stdio: "ignore" });
  const adminContext = await signIn(admin);
  visitorContexts.set("admin", adminContext);
  pages.push(...(await crawl("admin", adminContext, [...MEMBER_START, "/admin/advisors", "/"])));

  console.log(`Crawled ${pages.length} pages in ${Math.round((Date.now() - started) / 1000)} s.`);
  const errors = new Map(); // file → messages
  const note = (file, message) => errors.set(file, [...(errors.get(file) ?? []), message]);
  // The JVM checks the saved files while Chromium loads the pages: each waits on the other's CPU less
  // than on its own start-up and on the server.
  const nu = runVnu(pages.map((p) => p.file));
  nu.catch(() => {}); // awaited below; not an unhandled rejection while the sniffer runs
  browser = await chromium.launch({
    executablePath: chromiumPath(),
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-dev-shm-usage"],
  });
  for (const m of await runCodeSniffer(browser, pages)) note(m.file, `HTML_CodeSniffer: ${m.text}`);
  for (const m of await nu) note(m.file, `Nu: ${m.text}`);

  if (process.env.CHECK_HTML_KEEP === "1")
    fs.writeFileSync(path.join(pagesDir, "index.txt"), pages.map((p) => `${path.basename(p.file)} ${p.visitor}: ${p.url}\n`).join(""));
  const byVisitor = new Map();
  for (const p of pages) byVisitor.set(p.visitor, (byVisitor.get(p.visitor) ?? 0) + 1);
  console.log(`\nChecked ${pages.length} pages (${[...byVisitor].map(([v, n]) => `${n} ${v}`).join(", ")}) in ${Math.round((Date.now() - started) / 1000)} s.`);
  let count = 0;
  for (const p of pages) {
    const list = errors.get(p.file);
    if (!list) continue;
    console.log(`\n${p.url} (${p.visitor}):`);
    for (const message of list) console.log(`  - ${message}`);
    count += list.length;
  }
  if (count > 0) {
    console.log(`\n${count} HTML errors on ${errors.size} pages.`);
    process.exitCode = 1;
  } else {
    console.log("No HTML errors.");
  }
} catch (error) {
  console.error(error);
  process.exitCode = 1;
} finally {
  await browser?.close();
  stop();
}

async function waitForServer() {
  for (let i = 0; i < 600; i++) {
    if (server.exitCode !== null) throw new Error(`the site exited (${server.exitCode}) before it answered`);
    try {
      if ((await fetch(`${BASE}/healthz`)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("the site did not answer /healthz within a minute");
}

/** One address pattern per route and query shape: digits and ids become ':id'. */
function patternOf(url) {
  const { pathname, searchParams } = new URL(url, BASE);
  const segments = pathname.split("/").map((s) => (/\d/.test(s) && s.length > 0 ? ":id" : s));
  return `${segments.join("/")}?${[...new Set(searchParams.keys())].sort().join("&")}`;
}

function save(visitor, url, html) {
  fileNumber += 1;
  const file = path.join(pagesDir, `${String(fileNumber).padStart(4, "0")}.html`);
  fs.writeFileSync(file, html);
  return { visitor, url, file };
}

/** Breadth-first over same-site links; keeps each page's HTML as the server sent it. */
async function crawl(visitor, context, start) {
  const kept = [];
  const perPattern = new Map();
  const seen = new Set();
  const queue = [];
  const offer = (url) => {
    if (seen.has(url) || SKIP.some((re) => re.test(url))) return;
    seen.add(url);
    const pattern = patternOf(url);
    const n = perPattern.get(pattern) ?? 0;
    if (n >= PER_PATTERN) return;
    perPattern.set(pattern, n + 1);
    queue.push(url);
  };
  start.forEach(offer);
  while (queue.length > 0 && kept.length < MAX_PAGES_PER_VISITOR) {
    const batch = queue.splice(0, 4);
    const responses = await Promise.all(batch.map((url) => context.get(url, { maxRedirects: 5, failOnStatusCode: false })));
    for (const [i, response] of responses.entries()) {
      if (!(response.headers()["content-type"] ?? "").includes("text/html")) continue;
      if (response.status() >= 500) throw new Error(`${batch[i]} answered ${response.status()} (${visitor})`);
      const html = await response.text();
      const finalPath = new URL(response.url()).pathname + new URL(response.url()).search;
      kept.push(save(visitor, finalPath, html));
      for (const match of html.matchAll(/<a\b[^>]*?\shref="([^"#]*)/g)) {
        const url = new URL(match[1].replace(/&amp;/g, "&"), BASE + finalPath);
        if (url.origin === BASE) offer(url.pathname + url.search);
      }
    }
  }
  return kept;
}

function formPost(context, url, form) {
  return context.post(url, { form, headers: { origin: BASE }, maxRedirects: 5, failOnStatusCode: false });
}

/** The join form as a refused post shows it: every failing rule listed under its field. */
async function refusedJoin(context) {
  const response = await formPost(context, "/join", { fullName: "", email: "not-an-address", password: "short", confirmPassword: "other", termsAccepted: "" });
  return save("signed out", "/join (refused post)", await response.text());
}

async function join(name) {
  const email = `${name.toLowerCase().replace(/\W+/g, ".")}.${Date.now()}@example.com`;
  const password = "Long enough passphrase 42";
  const context = await request.newContext({ baseURL: BASE });
  const response = await formPost(context, "/join", { fullName: name, email, password, confirmPassword: password, termsAccepted: "on" });
  if (!(await response.text()).includes("Registration Successful!")) throw new Error(`joining as ${name} failed (${response.status()})`);
  return { email, password, context };
}

async function signIn({ email, password }) {
  const context = await request.newContext({ baseURL: BASE });
  const response = await formPost(context, "/signin", { email, password, redirectTo: "/dashboard" });
  if (!new URL(response.url()).pathname.startsWith("/dashboard")) throw new Error(`signing in as ${email} failed (${response.status()} at ${response.url()})`);
  return context;
}

/** One JVM for every page: `--errors-only` so warnings and info stay out. Its JSON report is on stderr. */
function runVnu(files) {
  const jar = String(require("vnu-jar"));
  return new Promise((resolve, reject) => {
    execFile(
      "java",
      ["-Xss4m", "-jar", jar, "--errors-only", "--format", "json", "--exit-zero-always", ...files],
      { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 },
      (error, _stdout, stderr) => (error ? reject(new Error(`vnu failed: ${error.message} ${stderr}`)) : resolve(parseVnu(stderr))),
    );
  });
}

function parseVnu(output) {
  if (!output.trim()) return [];
  const report = JSON.parse(output);
  return (
    report.messages
      // Its CSS checker predates Tailwind 4's CSS (@property, @layer, color-mix()): style sheets are not
      // what this check is about, and the browsers that run them are.
      .filter((m) => (m.type === "error" || m.subType === "fatal") && !m.message.startsWith("CSS:"))
      .map((m) => ({
        file: m.url ? new URL(m.url).pathname : "",
        text: `line ${m.lastLine ?? "?"}: ${m.message}${m.extract ? ` [${m.extract.trim().slice(0, 120)}]` : ""}`,
      }))
  );
}

/** Each page in Chromium with its styles (contrast is checked), HTML_CodeSniffer's WCAG2AA errors only. */
async function runCodeSniffer(browser, pages) {
  const htmlcs = fs.readFileSync(require.resolve("@pa11y/html_codesniffer/build/HTMLCS.js"), "utf8");
  const contexts = new Map();
  const contextFor = async (visitor) => {
    if (!contexts.has(visitor)) {
      const state = visitorContexts.has(visitor) ? await visitorContexts.get(visitor).storageState() : undefined;
      contexts.set(visitor, await browser.newContext({ storageState: state, bypassCSP: true }));
    }
    return contexts.get(visitor);
  };
  const found = [];
  const queue = pages.filter((p) => !p.url.includes(" "));
  const worker = async () => {
    // One tab per visitor, navigated from page to page: a new tab per page started a renderer process
    // for each, which cost more than the checks.
    const tabs = new Map();
    while (queue.length > 0) {
      const p = queue.shift();
      if (!tabs.has(p.visitor)) {
        const tab = await (await contextFor(p.visitor)).newPage();
        await tab.addInitScript({ content: HYDRATION_HOOK });
        tabs.set(p.visitor, tab);
      }
      const page = tabs.get(p.visitor);
      // The page itself, styles and scripts as a visit loads them (the DOM a visitor's tools read).
      await page.goto(BASE + p.url, { waitUntil: "load" });
      // The sniffer reads the document once React is done with it: hydrated, and the parts that
      // hydrate later (ADR 0031) too, or it may catch one with its server and client markup at once
      // (ids seen twice). It is evaluated in the page, adding no element React could meet.
      await page.waitForFunction(settled, undefined, { polling: 100 });
      await page.evaluate(`${htmlcs}\n;undefined`);
      const messages = await page.evaluate(
        () =>
          new Promise((resolve) => {
            window.HTMLCS.process("WCAG2AA", document, () => {
              resolve(
                window.HTMLCS.getMessages()
                  .filter((m) => m.type === window.HTMLCS.ERROR)
                  .map((m) => `${m.code}: ${m.msg} [${(m.element.outerHTML || "").slice(0, 120)}]`),
              );
            });
          }),
      );
      for (const text of messages) found.push({ file: p.file, text });
    }
    for (const page of tabs.values()) await page.close();
  };
  await Promise.all([worker(), worker(), worker()]);
  return found;
}
