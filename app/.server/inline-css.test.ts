import { describe, expect, it } from "vitest";
import { withStylesheet } from "./inline-css";

describe("the stylesheet written into a rendered page", () => {
  const css = 'body{margin:0}a::before{content:"· ✓"}';
  const page = (style: string) =>
    Buffer.from(`<!DOCTYPE html><html><head><title>é</title>${style}<meta name="x"/></head><body><style>p{}</style></body></html>`);

  it("fills the head's empty site stylesheet with the text, multi-byte characters as they are", () => {
    const out = withStylesheet(page('<style id="site-css" nonce="n0nce"></style>'), css).toString("utf8");
    expect(out).toBe(page(`<style id="site-css" nonce="n0nce">${css}</style>`).toString("utf8"));
    // The same bytes for the next page, encoded once.
    expect(withStylesheet(page('<style id="site-css"></style>'), css).toString("utf8")).toContain(`<style id="site-css">${css}</style>`);
  });

  it("leaves a page alone that has no such element, or whose element holds text already", () => {
    for (const style of ["", '<style id="site-css" nonce="n">p{}</style>', '<link rel="stylesheet" href="/assets/app.css"/>']) {
      expect(withStylesheet(page(style), css).equals(page(style))).toBe(true);
    }
  });
});
