// Which Debian Chromium the browser tests and the HTML checks drive (ADR 0061). CHROMIUM_PATH wins;
// else Debian's headless shell (package chromium-headless-shell), the build Playwright itself drives
// headless, which renders the same Blink at less than half the CPU of the full browser; else the
// full browser, so a machine with only `chromium` installed still runs every suite.
import fs from "node:fs";

export const HEADLESS_SHELL = "/usr/bin/chromium-headless-shell";
export const FULL_BROWSER = "/usr/bin/chromium";

export function chromiumPath(env = process.env) {
  if (env.CHROMIUM_PATH) return env.CHROMIUM_PATH;
  return fs.existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : FULL_BROWSER;
}
