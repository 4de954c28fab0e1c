// docs/decisions/README.md groups the ADRs by theme; a record it leaves out is one nobody finds.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const folder = path.resolve(import.meta.dirname, "../../docs/decisions");

/** The records the index does not link, and the links that lead to no record. */
export function indexGaps(records: string[], index: string) {
  const linked = new Set([...index.matchAll(/\]\((\d{4}-[a-z0-9-]+\.md)\)/g)].map((m) => m[1]!));
  return {
    missing: records.filter((name) => !linked.has(name)),
    dangling: [...linked].filter((name) => !records.includes(name)),
  };
}

describe("the decisions index", () => {
  it("links every record in docs/decisions, and only those", () => {
    const records = readdirSync(folder).filter((name) => /^\d{4}-.*\.md$/.test(name));
    expect(indexGaps(records, readFileSync(path.join(folder, "README.md"), "utf8"))).toEqual({ missing: [], dangling: [] });
  });

  it("finds a record left out and a link to a record that is gone", () => {
    const index = "| [0001](0001-record-decisions.md) | … |\n| [0099](0099-gone.md) | … |";
    expect(indexGaps(["0001-record-decisions.md", "0002-custom-express-server.md"], index)).toEqual({
      missing: ["0002-custom-express-server.md"],
      dangling: ["0099-gone.md"],
    });
  });
});
