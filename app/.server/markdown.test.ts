import { describe, expect, it } from "vitest";
import { renderMarkdown } from "./markdown";

describe("renderMarkdown", () => {
  it("renders Markdown", () => {
    expect(renderMarkdown("**bold**")).toContain("<strong>bold</strong>");
  });
  it("shows raw HTML as text, so script in a post is inert", () => {
    const html = renderMarkdown('<script>alert("x")</script><img src=x onerror=alert(1)>');
    expect(html).not.toContain("<script");
    expect(html).not.toContain("<img");
    expect(html).toContain("&lt;script&gt;");
  });
  it("drops javascript: links", () => {
    expect(renderMarkdown("[click](javascript:alert(1))")).not.toContain('href="javascript:');
  });
  it("marks member links nofollow ugc noopener noreferrer", () => {
    expect(renderMarkdown("[site](https://example.org)")).toContain('rel="nofollow ugc noopener noreferrer"');
  });
});
