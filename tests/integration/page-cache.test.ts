import { describe, expect, it } from "vitest";
import { siteOverHttp } from "./site-server";

describe("the anonymous page cache", () => {
  const h = siteOverHttp();

  it("serves the second anonymous GET of / from memory", async () => {
    const first = await h.http.get("/", { "accept-encoding": "br" });
    expect(first.status).toBe(200);
    expect(first.headers.get("x-page-cache")).toBe("miss");
    const second = await h.http.get("/", { "accept-encoding": "br" });
    expect(second.headers.get("x-page-cache")).toBe("hit");
    console.log([...second.headers.entries()]);
  });
});
