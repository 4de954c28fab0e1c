import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { KeptMarkupContext, ServerMarkup } from "~/components/layout/server-markup";
import { keptMarkup, SAME_EVERYWHERE } from "~/.server/kept-markup";

describe("layout parts the same on every page", () => {
  it("are rendered once per process, and every page carries their markup; any other part with each page", () => {
    let renders = 0;
    const Brand = () => {
      renders++;
      return createElement("a", { href: "/" }, "Inner Peace. ", createElement("br"), "Outer Strength.");
    };
    const page = (id: string) =>
      renderToString(createElement(KeptMarkupContext.Provider, { value: keptMarkup }, createElement(ServerMarkup, { id, children: createElement(Brand) })));
    const first = page("brand");
    expect(first).toBe('<div id="brand" class="contents"><a href="/">Inner Peace. <br/>Outer Strength.</a></div>');
    expect(page("brand")).toBe(first);
    expect(renders).toBe(1);
    // A part not named as the same everywhere (the bell, the year) is rendered with each page.
    expect(page("bell")).toBe(first.replace('id="brand"', 'id="bell"'));
    page("bell");
    expect(renders).toBe(3);
  });

  it("names only parts that show nothing of the request, the viewer or the time", () => {
    expect([...SAME_EVERYWHERE].sort()).toEqual(["bar-search", "brand", "footer-links", "menu-search"]);
  });
});
