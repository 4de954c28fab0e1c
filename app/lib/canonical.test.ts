import { describe, expect, it } from "vitest";
import { canonicalUrl } from "./canonical";

describe("canonicalUrl", () => {
  it("is BASE_URL's origin and the path, with no trailing slash", () => {
    expect(canonicalUrl("https://ipos.example", "/terms")).toBe("https://ipos.example/terms");
    expect(canonicalUrl("https://ipos.example/", "/terms/")).toBe("https://ipos.example/terms");
    expect(canonicalUrl("http://localhost:3000", "/")).toBe("http://localhost:3000/");
  });

  it("keeps only the parameters that choose the page, in a fixed order", () => {
    expect(canonicalUrl("https://ipos.example", "/monastery/stoic", "?page=last&utm_source=x")).toBe("https://ipos.example/monastery/stoic?page=last");
    expect(canonicalUrl("https://ipos.example", "/forge", "?after=abc&type=music")).toBe("https://ipos.example/forge?type=music&after=abc");
    expect(canonicalUrl("https://ipos.example", "/council", "?view=unanswered&virtue=wisdom")).toBe(
      "https://ipos.example/council?virtue=wisdom&view=unanswered",
    );
    expect(canonicalUrl("https://ipos.example", "/monastery/a/b", "?edit=5&redirectTo=/x")).toBe("https://ipos.example/monastery/a/b");
    expect(canonicalUrl("https://ipos.example", "/forge", "?page=first")).toBe("https://ipos.example/forge");
  });

  it("stays on the site's own host and encodes what a URL must", () => {
    expect(canonicalUrl("https://ipos.example", "//evil.com")).toBe("https://ipos.example//evil.com");
    expect(canonicalUrl("https://ipos.example", "/members/zoë")).toBe("https://ipos.example/members/zo%C3%AB");
    expect(canonicalUrl("https://ipos.example", "/members/zo%C3%AB")).toBe("https://ipos.example/members/zo%C3%AB");
  });
});
