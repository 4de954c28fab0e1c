import { afterAll, beforeAll } from "vitest";
import type { Viewer } from "~/.server/context";
import { member } from "../factories";
import { createTestSite, type TestSite } from "./test-services";

/**
 * One test file's site: a fresh database made before the file's tests and removed after them. The
 * object is returned at once and filled in by beforeAll, so the file's module-level helpers may close
 * over it (as `siteOverHttp` does for the HTTP files).
 */
export function testSiteForFile(): TestSite {
  const site = {} as TestSite;
  beforeAll(async () => {
    Object.assign(site, await createTestSite());
  });
  // A beforeAll that failed made no site, and its error is the one worth reading.
  afterAll(async () => {
    if ("destroy" in site) await site.destroy();
  });
  return site;
}

/** A moderator on the file's site, made before its tests (and filled in then, like the site). */
export function moderatorForFile(site: TestSite): Viewer {
  const moderator = {} as Viewer;
  beforeAll(async () => {
    Object.assign(moderator, await member(site.services.db, { role: "moderator" }));
  });
  return moderator;
}

/** A domain call the test needs to succeed: its value, or a failure that shows the refusal. */
export function ok<T>(outcome: { ok: true; value: T } | { ok: false }): T {
  if (!outcome.ok) throw new Error(`expected success: ${JSON.stringify(outcome)}`);
  return outcome.value;
}
