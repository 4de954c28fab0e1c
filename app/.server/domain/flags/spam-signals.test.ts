import { describe, expect, it } from "vitest";
import { renderMarkdown } from "../../markdown";
import { FIRST_POSTS, linkedSites, spamSignal } from "./spam-signals";

const post = (body: string) => ({ body, html: renderMarkdown(body) });

describe("spam signals on a new member's first posts", () => {
  it("names many links, one site in every post, and text posted again; plain posts pass", () => {
    expect(spamSignal(post("Hello, I am new here and glad to sit with you."), [])).toBeNull();
    expect(spamSignal(post("See https://a.example and https://b.example"), [])).toBe("many links");
    expect(spamSignal(post("My shop: https://www.shop.example/mats"), [post("Try https://shop.example/bells")])).toBe("same site in every post");
    expect(spamSignal(post("My shop: https://shop.example/mats"), [post("Try https://shop.example/bells"), post("No link here at all, friends.")])).toBeNull();
    expect(spamSignal(post("Buy the best yoga mats today!!"), [post("buy the   best yoga mats TODAY!!")])).toBe("text repeated");
    // Short repeats are manners, not spam.
    expect(spamSignal(post("Thank you!"), [post("Thank you!")])).toBeNull();
    // Past the first posts, nothing is checked.
    const many = Array.from({ length: FIRST_POSTS }, () => post("Try https://shop.example/bells"));
    expect(spamSignal(post("See https://a.example and https://b.example"), many)).toBeNull();
  });

  it("reads the sites of members' links only: not mentions, not broken addresses", () => {
    const html = renderMarkdown("[a](https://www.one.example/x?a=1&b=2) and https://two.example") + '<a href="/members/ann" class="mention">@ann</a>';
    expect([...linkedSites(html)].sort()).toEqual(["one.example", "two.example"]);
  });
});
