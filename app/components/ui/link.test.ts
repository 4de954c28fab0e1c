import { describe, expect, it } from "vitest";
import { isActivePath } from "./link";

describe("isActivePath", () => {
  it("marks the same path, and a path below it unless `end` is set, as React Router's NavLink does", () => {
    expect(isActivePath("/council", "/council", false)).toBe(true);
    expect(isActivePath("/council/12-why", "/council", false)).toBe(true);
    expect(isActivePath("/council/12-why", "/council", true)).toBe(false);
    expect(isActivePath("/councillors", "/council", false)).toBe(false);
    expect(isActivePath("/Council", "/council", false)).toBe(true);
    expect(isActivePath("/council", "/council/", false)).toBe(true);
  });

  it("marks the home link on the home page alone", () => {
    expect(isActivePath("/", "/", true)).toBe(true);
    expect(isActivePath("/forge", "/", true)).toBe(false);
    expect(isActivePath("/forge", "/", false)).toBe(false);
  });
});
