import { describe, expect, it } from "vitest";
import { pageAddressOf, safeRedirectTarget } from "./session";

/** Where a browser on this site would go when it gets `Location: <target>`. */
const landsOn = (target: string) => new URL(target, "https://ipos.example/signin");

describe("safeRedirectTarget", () => {
  it("keeps paths on this site, normalised to ASCII", () => {
    expect(safeRedirectTarget("/forge")).toBe("/forge");
    expect(safeRedirectTarget("/council/7?edit=question#answer-3")).toBe("/council/7?edit=question#answer-3");
    expect(safeRedirectTarget("/monastery/../forge")).toBe("/forge");
    expect(safeRedirectTarget("/。/x")).toBe("/%E3%80%82/x");
  });

  it("sends every hostile or malformed target to the fallback", () => {
    const hostile = [
      "/\t/evil.example",
      "/\n/evil.example",
      "/\r\n/evil.example",
      "/\u0000/evil.example",
      "//evil.example",
      "///evil.example",
      "/\\evil.example",
      "\\/evil.example",
      "\\\\evil.example",
      "/%09/evil.example",
      "/%2F%2Fevil.example",
      "/%2f/evil.example",
      "/%5C/evil.example",
      "/%ZZ",
      "https://evil.example",
      "http:/evil.example",
      "javascript:alert(1)",
      " /forge",
      "forge",
      "",
      `/${"a".repeat(5000)}`,
      null,
      undefined,
      new File(["/forge"], "x"),
    ];
    for (const target of hostile) {
      const result = safeRedirectTarget(target);
      expect(result, JSON.stringify(target)).toBe("/dashboard");
    }
    expect(safeRedirectTarget("//evil.example", "/")).toBe("/");
  });

  it("never returns a target that a browser resolves to another origin", () => {
    const tricky = ["/\t/evil", "/ /evil", "/./\t/evil", "/..//evil", "/.//evil", "/%2e%2e//evil", "/x/..//evil", "/%E3%80%82/x", "/a?//evil", "/a#//evil"];
    for (const target of tricky) {
      expect(landsOn(safeRedirectTarget(target)).origin, JSON.stringify(target)).toBe("https://ipos.example");
    }
  });
});

describe("pageAddressOf", () => {
  const of = (url: string) => pageAddressOf(new Request(`https://ipos.example${url}`));
  it("is the page a React Router data request is for, without its suffix or _routes", () => {
    expect(of("/dashboard.data")).toBe("/dashboard");
    expect(of("/council/5.data?_routes=routes%2Fcouncil%2Fquestion")).toBe("/council/5");
    expect(of("/_.data")).toBe("/");
    expect(of("/council/5/_.data")).toBe("/council/5/");
    expect(of("/forge.data?type=music&_routes=root")).toBe("/forge?type=music");
    expect(of("/council/5?edit=question")).toBe("/council/5?edit=question");
  });
});
