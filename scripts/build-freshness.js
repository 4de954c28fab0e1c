// Whether build/ was made from the sources as they are now (issue 33): `npm start` rebuilds only when
// it was not (about 13 s saved on every restart), and the process tests use the same rule.
import fs from "node:fs";
import path from "node:path";

/** What the build is made from: the app's code, its content and assets, and the build's configuration. */
export const BUILD_INPUTS = {
  folders: ["app", "server", "database", "content", "public"],
  files: ["package.json", "package-lock.json", "vite.config.ts", "react-router.config.ts", "tsconfig.json"],
};

/** Tests are no input of the build: editing one never makes a start rebuild. */
const NOT_INPUT = /\.test\.tsx?$/;

function newestIn(dir) {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestIn(full));
    else if (!NOT_INPUT.test(entry.name)) newest = Math.max(newest, fs.statSync(full).mtimeMs);
  }
  return newest;
}

/** The newest modification time among the build's inputs under `root`. */
export function newestInput(root) {
  const times = [
    ...BUILD_INPUTS.folders
      .map((d) => path.join(root, d))
      .filter((d) => fs.existsSync(d))
      .map(newestIn),
    ...BUILD_INPUTS.files
      .map((f) => path.join(root, f))
      .filter((f) => fs.existsSync(f))
      .map((f) => fs.statSync(f).mtimeMs),
  ];
  return Math.max(0, ...times);
}

/**
 * Why the build under `root` must be made again, or null when it is current: missing (a fresh
 * clone), incomplete, or older than an input changed since.
 */
export function staleBuildReason(root) {
  const server = path.join(root, "build/server/index.js");
  const client = path.join(root, "build/client");
  if (!fs.existsSync(server) || !fs.existsSync(client)) return "there is no build yet";
  const builtAt = fs.statSync(server).mtimeMs;
  return newestInput(root) > builtAt ? "the sources changed since the last build" : null;
}
