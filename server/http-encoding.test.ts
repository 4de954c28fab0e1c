import { describe, expect, it } from "vitest";
import { chooseEncoding, encodedTag, notModifiedFor } from "./http-encoding";

describe("chooseEncoding", () => {
  const both = { br: 1, gzip: 1, identity: 1 };
  it.each([
    [undefined, "identity"],
    ["", "identity"],
    ["gzip, deflate, br", "br"],
    ["br;q=0.1, gzip;q=1", "gzip"],
    ["br;q=0.5, gzip;q=0.5", "br"],
    ["gzip", "gzip"],
    ["*", "br"],
    ["*;q=0, gzip", "gzip"],
    ["identity;q=0, br;q=0, gzip;q=0", null],
    ["br;q=abc", "identity"],
    ["deflate", "identity"],
    ["br ;q=0, *", "gzip"],
    ["br; q = 0, gzip ; q=0.5", "gzip"],
  ])("%s → %s", (header, expected) => {
    expect(chooseEncoding(header, both)).toBe(expected);
  });
  it("lets the highest weight win over brotli's preference, which only breaks ties", () => {
    // The page cache's own parser used to answer br here: any q above 0 was enough.
    expect(chooseEncoding("br;q=0.2, gzip;q=0.8", both)).toBe("gzip");
    expect(chooseEncoding("gzip;q=0.8, br;q=0.8", both)).toBe("br");
    // `*` covers what is not named, and identity named higher than the codings wins.
    expect(chooseEncoding("gzip;q=0.4, *;q=0.6", both)).toBe("br");
    expect(chooseEncoding("identity, br;q=0.5", both)).toBe("identity");
  });
  it("offers only the copies it has", () => {
    expect(chooseEncoding("br, gzip", { gzip: 1, identity: 1 })).toBe("gzip");
  });
});

describe("one ETag per encoding and If-None-Match", () => {
  it("names each encoding's bytes apart and matches by weak comparison, or any tag for `*`", () => {
    const tags = (["identity", "gzip", "br"] as const).map((e) => encodedTag("abc", e));
    expect(tags).toEqual(['"abc"', '"abc-gz"', '"abc-br"']);
    expect(notModifiedFor('"x", W/"abc-gz"', '"abc-gz"')).toBe(true);
    expect(notModifiedFor('"abc-gz"', '"abc-br"')).toBe(false);
    expect(notModifiedFor('"abc-gz"', tags)).toBe(true);
    expect(notModifiedFor("*", '"abc"')).toBe(true);
    expect(notModifiedFor(undefined, '"abc"')).toBe(false);
  });
});
