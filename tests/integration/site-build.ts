import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import type { TestProject } from "vitest/node";

/**
 * Vitest's global setup: builds the site once per run, as `npm run build` does, for every HTTP test
 * file to import (ADR 0055). Compiling the route modules in each file instead (a Vite server per
 * file) cost about as long as the whole build, again in each file that starts the site.
 *
 * Each run builds into a directory of its own under node_modules/.cache, never build/ (the browser
 * tests' and `npm start`'s): two runs at once in one tree (SQLite and PostgreSQL) do not meet, and
 * the bundle's bare imports (react-router, kysely) resolve to the same node_modules as the tests'.
 */
export const BUILDS = path.resolve("node_modules/.cache/ipos-test-build");

declare module "vitest" {
  export interface ProvidedContext {
    /** This run's build directory: server/index.js is server/app.ts built, as in build/. */
    siteBuild: string;
  }
}

export default async function setup(project: TestProject) {
  removeAbandoned();
  const dir = path.join(BUILDS, `run-${process.pid}`);
  await build(dir);
  project.provide("siteBuild", dir);
  // Watch mode: a rerun tests the tree as it is now, so it gets a new build first.
  project.onTestsRerun(() => build(dir));
  return () => fs.rmSync(dir, { recursive: true, force: true });
}

/**
 * What `react-router build` does (Vite's builder with vite.config.ts, mode production), into `dir`
 * (react-router.config.ts reads IPOS_BUILD_DIRECTORY), in a process of its own: Vite and Tailwind
 * install module hooks in the process that builds, and this one runs the tests.
 */
async function build(dir: string) {
  // cssMinify off: the stylesheet's name then never matches build/client's, so pages link it as
  // they always did here, whether or not build/ was made from the same tree (app/.server/inline-css.ts
  // inlines a stylesheet only when build/client holds it).
  const script = `
    const { createBuilder } = await import("vite");
    const builder = await createBuilder({ configFile: "vite.config.ts", mode: "production", logLevel: "warn", build: { cssMinify: false } });
    await builder.buildApp();`;
  const child = spawn(process.execPath, ["--input-type=module", "--eval", script], {
    env: { ...process.env, NODE_ENV: "production", IPOS_BUILD_DIRECTORY: dir },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => void (output += chunk));
  child.stderr.on("data", (chunk: Buffer) => void (output += chunk));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once("error", reject);
    child.once("close", resolve);
  });
  if (code !== 0 || !fs.existsSync(path.join(dir, "server/index.js"))) {
    throw new Error(`The HTTP tests' build of the site failed (exit ${code}):\n${output}`);
  }
}

/** Builds left by runs that ended without their teardown (killed): their process is gone. */
function removeAbandoned() {
  for (const name of fs.existsSync(BUILDS) ? fs.readdirSync(BUILDS) : []) {
    const pid = Number(/^run-(\d+)$/.exec(name)?.[1]);
    if (pid && !alive(pid)) fs.rmSync(path.join(BUILDS, name), { recursive: true, force: true });
  }
}

function alive(pid: number) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
