// Full-page screenshots of every kind of page at a phone's width (375 px) and a desktop's
// (1280 px), signed out and signed in, for looking at the site as a new member sees it.
//
//   npm run screenshots            builds, starts the site on a fresh temp data dir, shoots
//   SCREENSHOTS_URL=http://localhost:3000 npm run screenshots      shoots a running site instead
//   SCREENSHOTS_BUILD=0 npm run screenshots                        reuses the last build
//
// PNGs go to ./screenshots/ (git-ignored), named <width>-<signed-out|member>-<page>.png.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium } from "playwright-core";

const root = path.resolve(import.meta.dirname, "..");
const outDir = path.join(root, "screenshots");
const WIDTHS = [375, 1280];

const PUBLIC_PAGES = [
  ["home", "/"],
  ["monastery", "/monastery"],
  ["battlefield", "/battlefield"],
  ["forge", "/forge"],
  ["council", "/council"],
  ["join", "/join"],
  ["signin", "/signin"],
  ["forgot-password", "/forgot-password"],
  ["reset-password-used-link", "/reset-password?token=no-such-token"],
  ["manifesto", "/manifesto"],
  ["ranks", "/ranks"],
  ["events", "/events"],
  ["faq", "/faq"],
  ["terms", "/terms"],
  ["privacy", "/privacy"],
  ["code-of-conduct", "/code-of-conduct"],
  ["not-found", "/no-such-page"],
];
const MEMBER_PAGES = [
  ["home", "/"],
  ["dashboard", "/dashboard"],
  ["ranks", "/ranks"],
  ["manifesto", "/manifesto"],
  ["events", "/events"],
  ["forge", "/forge"],
  ["council-ask", "/council/ask"],
];

async function startSite() {
  if (process.env.SCREENSHOTS_URL) return { baseUrl: process.env.SCREENSHOTS_URL.replace(/\/$/, ""), stop: async () => {} };
  if (process.env.SCREENSHOTS_BUILD !== "0") {
    const build = spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" });
    if (build.status !== 0) throw new Error("The build failed.");
  }
  if (!fs.existsSync(path.join(root, "build/server"))) throw new Error("No build found: run `npm run build` first.");
  const port = Number(process.env.SCREENSHOTS_PORT ?? 3290);
  const baseUrl = `http://localhost:${port}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "ipos-screenshots-"));
  const server = spawn(process.execPath, ["server/index.js"], {
    cwd: root,
    stdio: ["ignore", "inherit", "inherit"],
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, BASE_URL: baseUrl, NODE_ENV: "production", LOG_LEVEL: "warn" },
  });
  const exited = new Promise((resolve) => server.once("exit", resolve));
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${baseUrl}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (server.exitCode !== null || i > 120) throw new Error(`The site did not start on ${baseUrl}.`);
    await new Promise((r) => setTimeout(r, 500));
  }
  return {
    baseUrl,
    stop: async () => {
      server.kill("SIGTERM");
      await exited;
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The first link on `from` whose path matches `pattern`: a topic, a discussion, a question, a creation. */
async function firstLink(page, baseUrl, from, pattern) {
  await page.goto(baseUrl + from);
  const hrefs = await page.locator("main a[href]").evaluateAll((links) => links.map((a) => a.getAttribute("href")));
  const href = hrefs.find((h) => pattern.test(h.split(/[?#]/)[0]));
  if (!href) throw new Error(`No link like ${pattern} on ${from}`);
  return href;
}

async function shoot(context, baseUrl, who, pages) {
  const page = await context.newPage();
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: width < 640 ? 740 : 900 });
    for (const [name, url] of pages) {
      await page.goto(baseUrl + url, { waitUntil: "networkidle" });
      const file = path.join(outDir, `${width}-${who}-${name}.png`);
      await page.screenshot({ path: file, fullPage: true });
      console.log(`  ${path.relative(root, file)}`);
    }
    if (width < 640) {
      // The bar's menus, opened, on a phone.
      await page.goto(baseUrl + "/", { waitUntil: "networkidle" });
      await page.getByRole("button", { name: "Open menu" }).click();
      await page.screenshot({ path: path.join(outDir, `${width}-${who}-menu-open.png`) });
      await page.locator("nav summary").click();
      await page.screenshot({ path: path.join(outDir, `${width}-${who}-avatar-menu-open.png`) });
    }
  }
  await page.close();
}

const site = await startSite();
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-dev-shm-usage"],
});
try {
  fs.mkdirSync(outDir, { recursive: true });
  const visitor = await browser.newContext();
  const finder = await visitor.newPage();
  const topic = await firstLink(finder, site.baseUrl, "/monastery", /^\/monastery\/[^/]+$/);
  const discussion = await firstLink(finder, site.baseUrl, topic, /^\/monastery\/[^/]+\/\d+/);
  const question = await firstLink(finder, site.baseUrl, "/council", /^\/council\/\d+$/);
  const creation = await firstLink(finder, site.baseUrl, "/forge", /^\/forge\/\d+$/);
  await finder.close();
  const content = [
    ["topic", topic],
    ["discussion", discussion],
    ["question", question],
    ["creation", creation],
  ];
  console.log(`Screenshots of ${site.baseUrl} into ${path.relative(root, outDir)}/:`);
  await shoot(visitor, site.baseUrl, "signed-out", [...PUBLIC_PAGES, ...content]);

  // A new member, joined through the form as a browser without JavaScript posts it.
  const member = await browser.newContext();
  const email = `screenshots-${Date.now()}@example.org`;
  const joined = await member.request.post(`${site.baseUrl}/join`, {
    form: { fullName: "Nova Newcomer", email, password: "Stillness42Strong", confirmPassword: "Stillness42Strong", termsAccepted: "on" },
  });
  if (!(await joined.text()).includes("Registration Successful!")) throw new Error(`Joining failed (HTTP ${joined.status()}).`);
  await shoot(member, site.baseUrl, "member", [...MEMBER_PAGES, ...content]);
} finally {
  await browser.close();
  await site.stop();
}
