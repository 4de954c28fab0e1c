import { afterAll, beforeAll, expect } from "vitest";
import { insertDemoContent } from "~/.server/db/demo-content";
import { createTestSite, type TestSite } from "./test-services";

/**
 * A test site holding the demo content (inserted once, as a first start does), made before the
 * file's tests and destroyed after them; read `site` inside a test.
 */
export function demoSite() {
  const held = {} as { site: TestSite };
  beforeAll(async () => {
    held.site = await createTestSite();
    expect(await insertDemoContent(held.site.services.db)).toBe(true);
  });
  afterAll(async () => {
    await held.site.destroy();
  });
  return held;
}
