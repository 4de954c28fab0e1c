// `npm start`'s first step (prestart): builds the site only when build/ is missing or older than its
// sources (scripts/build-freshness.js), so a restart serves at once and a fresh clone still builds.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { staleBuildReason } from "./build-freshness.js";

const root = path.resolve(import.meta.dirname, "..");
const reason = process.env.FORCE_BUILD === "1" ? "FORCE_BUILD=1" : staleBuildReason(root);
if (reason === null) {
  console.log("The build is current; starting without building (FORCE_BUILD=1 builds anyway).");
} else {
  console.log(`Building the site: ${reason}.`);
  const built = spawnSync(process.execPath, [path.join(root, "node_modules/.bin/react-router"), "build"], { cwd: root, stdio: "inherit" });
  process.exit(built.status ?? 1);
}
