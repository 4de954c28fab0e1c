// Issue 25's hostile uploads (ADR 0043): 16 parallel 6300 × 6300 PNGs (128 KB each, 39.7
// megapixels) from members already over their daily posting limit, and 16 from members under it,
// all at once, while another member signs in again and again. Prints sign-in p50/p99 before and
// during the uploads, what the uploads were answered, and the server's resident memory (RSS).
//   npm run bench:uploads                                 the site from source (Vite, no build needed), fresh SQLite
//   BUILT=1 npm run bench:uploads                         the production build (run `npm run build` first)
//   DATABASE_URL=postgres://…/fresh npm run bench:uploads  the same on PostgreSQL (an empty database)
//   TREE=/tmp/before npm run bench:uploads                 the site of another tree (e.g. `git archive` of an
//                                                         older commit, with a node_modules link), to compare
// Loopback only; every loop is bounded. Each member joins from an address of its own
// (X-Forwarded-For, which the site trusts from loopback; documentation-range strings in a header).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { postUrlencoded, startBuiltSite, startSourceSite, summarise, tallyStatuses } from "./bench-support";

const HOSTILE = 16;
const QUIET_SIGN_INS = Number(process.env.SIGN_INS ?? 30);
const PASSWORD = "Secret123";

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "ipos-uploads-"));
// MALLOC_ARENA_MAX=2 (say) is passed on to the server: glibc's allocator keeps an arena per thread.
const site = await (process.env.BUILT ? startBuiltSite : startSourceSite)(dataDir, {}, { cwd: process.env.TREE ?? process.cwd() });
const base = site.base;
console.log(
  `hostile uploads against ${base} (${process.env.BUILT ? "build" : "source"}${process.env.DATABASE_URL ? ", PostgreSQL" : ", SQLite"}), ${os.availableParallelism()} cores\n`,
);

// ---------------------------------------------------------------- the server's memory

/** Resident memory of the server process now and at its peak so far, in MB (Linux /proc). */
function memory() {
  const status = fs.readFileSync(`/proc/${site.pid}/status`, "utf8");
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? NaN);
  return { rss: kb("VmRSS") / 1024, peak: kb("VmHWM") / 1024 };
}
let sampledPeak = 0;
const sampler = setInterval(() => (sampledPeak = Math.max(sampledPeak, memory().rss)), 50);

// ---------------------------------------------------------------- members, as a browser would

let ips = 0;
const freshIp = () => `198.51.100.${(ips++ % 250) + 1}`;
const cookieOf = (res: Response) =>
  res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0]!)
    .filter((pair) => !pair.endsWith("="))
    .join("; ");

const postForm = (url: string, form: Record<string, string>, headers: Record<string, string> = {}) => postUrlencoded(base, url, form, headers);

let joined = 0;
async function join() {
  joined += 1;
  const email = `uploads${joined}-${Date.now()}@example.org`;
  const res = await postForm(
    "/join",
    { fullName: `Upload Tester ${joined}`, email, password: PASSWORD, confirmPassword: PASSWORD, termsAccepted: "on" },
    { "x-forwarded-for": freshIp() },
  );
  await res.arrayBuffer();
  const cookie = cookieOf(res);
  if (res.status !== 200 || !cookie.includes("session_token")) throw new Error(`join answered ${res.status}`);
  return { email, cookie };
}

function share(cookie: string, type: string, image?: Buffer) {
  const body = new FormData();
  for (const [name, value] of Object.entries({
    title: `A ${type} piece`,
    description: "Made this week.",
    type,
    body: "Some words.",
    submissionKey: crypto.randomUUID(),
  })) {
    body.append(name, value);
  }
  if (image) body.append("image", new Blob([new Uint8Array(image)], { type: "image/png" }), "large.png");
  return fetch(base + "/forge/new", { method: "POST", redirect: "manual", headers: { origin: base, cookie }, body });
}

/** One sign-in with the right password, timed to its whole answer. */
async function signIn(email: string, ip: string) {
  const started = performance.now();
  const res = await postForm("/signin", { email, password: PASSWORD }, { "x-forwarded-for": ip });
  await res.arrayBuffer();
  if (res.status !== 302 && res.status !== 303) throw new Error(`sign-in answered ${res.status}`);
  return performance.now() - started;
}

const percentile = (samples: number[], p: number) => [...samples].sort((a, b) => a - b)[Math.min(samples.length - 1, Math.floor(samples.length * p))]!;
const ms = (n: number) => `${n.toFixed(0)} ms`;
const mb = (n: number) => `${n.toFixed(0)} MB`;
function row(label: string, value: string) {
  console.log(`  ${label.padEnd(46)} ${value}`);
}

// ---------------------------------------------------------------- the scenario

try {
  // 128 KB on the wire, 39.7 megapixels decoded: just under the site's 40-megapixel ceiling.
  const hostile = await sharp({ create: { width: 6300, height: 6300, channels: 3, background: "#b4532a" } })
    .png({ compressionLevel: 9 })
    .toBuffer();
  console.log(`hostile image: 6300 × 6300 PNG, ${(hostile.length / 1024).toFixed(0)} KB`);

  const signer = await join();
  const signerIp = freshIp();
  // Over the limit: new members are initiates, three new posts a day between them all.
  const over = await Promise.all(Array.from({ length: 4 }, () => join()));
  for (const member of over) {
    for (let i = 0; i < 3; i++) {
      const res = await share(member.cookie, "writing");
      await res.arrayBuffer();
      if (res.status !== 302) throw new Error(`a writing answered ${res.status}`);
    }
  }
  // Under the limit: two rounds of 16 members, one upload each, so the second shows whether memory keeps growing.
  const under = [await Promise.all(Array.from({ length: HOSTILE }, () => join())), await Promise.all(Array.from({ length: HOSTILE }, () => join()))];

  const quiet: number[] = [];
  for (let i = 0; i < QUIET_SIGN_INS; i++) quiet.push(await signIn(signer.email, signerIp));
  const before = memory();

  console.log(`\nSign-in with nothing else running (${QUIET_SIGN_INS} in a row)`);
  row("p50 / p99 / slowest", `${ms(percentile(quiet, 0.5))} / ${ms(percentile(quiet, 0.99))} / ${ms(summarise(quiet).max)}`);
  row("server RSS", mb(before.rss));

  /** 16 uploads at once: `perMember` from each of `members`. */
  const attack = (members: { cookie: string }[], perMember: number) =>
    Promise.all(
      members.flatMap((member) =>
        Array.from({ length: perMember }, () => share(member.cookie, "art", hostile).then(async (r) => (await r.arrayBuffer(), r.status))),
      ),
    );

  /**
   * Runs rounds of 16 uploads (each round when the one before has been answered) for at least
   * `minSeconds`, at least one, while one member signs in back to back, and prints what both saw.
   */
  async function scenario(label: string, round: () => Promise<number[]>, minSeconds = 0) {
    sampledPeak = memory().rss;
    const during: number[] = [];
    let slowestAt = 0;
    const statuses: number[] = [];
    let done = false;
    const started = performance.now();
    const uploads = (async () => {
      do statuses.push(...(await round()));
      while (performance.now() - started < minSeconds * 1000);
    })().finally(() => (done = true));
    // Bounded by the uploads, which are bounded by their rounds and the site's own answers.
    while (!done) {
      const at = performance.now() - started;
      const took = await signIn(signer.email, signerIp);
      if (took > Math.max(0, ...during)) slowestAt = at;
      during.push(took);
    }
    await uploads;
    const seconds = (performance.now() - started) / 1000;
    console.log(`\n${label}`);
    row("uploads answered", `${tallyStatuses(statuses)} in ${seconds.toFixed(1)} s`);
    row(
      `sign-ins meanwhile: ${during.length}, p50 / p99 / slowest`,
      `${ms(percentile(during, 0.5))} / ${ms(percentile(during, 0.99))} / ${ms(summarise(during).max)}`,
    );
    // At 0 s it is the burst of requests itself (forms read, refusal pages rendered), not image work.
    row("the slowest sign-in began", `${(slowestAt / 1000).toFixed(1)} s into the uploads`);
    row("server RSS peak (sampled every 50 ms)", mb(sampledPeak));
    row("server RSS when done", mb(memory().rss));
  }

  // The attack of issue 25, twice (fresh members under their limit each time: does memory keep growing?).
  for (const [i, members] of under.entries()) {
    await scenario(
      `${HOSTILE} uploads from 4 members over their daily limit (4 each) and ${HOSTILE} from ${HOSTILE} members under it (1 each), all at once (round ${i + 1})`,
      async () => (await Promise.all([attack(over, 4), attack(members, 1)])).flat(),
    );
  }
  // Harsher than the issue: the 16 over the limit send again as soon as they are answered.
  await scenario(`4 members over their daily limit, 4 uploads each, sending again as soon as answered, for 10 s`, () => attack(over, 4), 10);

  await new Promise((r) => setTimeout(r, 5000));
  const after = memory();
  console.log("");
  row("server RSS 5 s after the last upload", mb(after.rss));
  row("server RSS peak over the whole run (VmHWM)", mb(after.peak));
} finally {
  clearInterval(sampler);
  await site.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
