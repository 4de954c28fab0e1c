import fs from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";

/**
 * Playwright's global teardown: fails the run when the server's page-cache audit (ADR 0051) wrote
 * any violation to PAGE_CACHE_AUDIT_FILE: a page kept though it read a table no tag of its covers,
 * or a write that named no tag for a table it changed. The file is removed once read, so a data
 * directory kept between runs (E2E_DATA_DIR) starts the next run clean.
 */
export default async function pageCacheAuditTeardown() {
  const file = process.env.PAGE_CACHE_AUDIT_FILE;
  if (!file) throw new Error("PAGE_CACHE_AUDIT_FILE is not set: playwright.config.ts sets it for the server it starts");
  // The server judges a request's writes a moment after its answer (a GET's side effect may follow).
  await sleep(1000);
  checkAuditFile(file);
}

/** Throws, listing them, when the audit file holds any violation; removes the file once read. */
export function checkAuditFile(file: string) {
  const lines = fs.existsSync(file) ? fs.readFileSync(file, "utf8").split("\n").filter(Boolean) : [];
  fs.rmSync(file, { force: true });
  if (lines.length === 0) return;
  const listed = lines.map((line) => {
    const v = JSON.parse(line) as { rule: string; method: string; path: string; tables: string[]; tags: string[] };
    return `  ${v.rule}: ${v.method} ${v.path} tables [${v.tables.join(", ")}] tags [${v.tags.join(", ")}]`;
  });
  throw new Error(`The page-cache audit found ${lines.length} missing tag(s) in the browser suite:\n${listed.join("\n")}`);
}
