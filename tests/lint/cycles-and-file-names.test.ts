// The cycle and file-name rules of ADR 0054, run through the project's own ESLint configuration on
// probe modules. A cycle needs files that exist, so those probes are written into a folder of this
// test's own inside the tree (ESLint lints nothing outside it) and removed afterwards.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ESLint } from "../../tools/lint/plugins.js";

const root = path.resolve(import.meta.dirname, "../..");
const eslint = new ESLint({ cwd: root });
const probes = path.join(root, "tests/lint", `probe-${process.pid}`);

afterAll(() => rmSync(probes, { recursive: true, force: true }));

/** The messages of `rule` for each file, written first under the probe folder. */
async function messagesOf(rule: string, files: Record<string, string>) {
  mkdirSync(probes, { recursive: true });
  for (const [name, code] of Object.entries(files)) writeFileSync(path.join(probes, name), code);
  const results = await eslint.lintFiles(Object.keys(files).map((name) => path.join(probes, name)));
  return Object.fromEntries(results.map((r) => [path.basename(r.filePath), r.messages.filter((m) => m.ruleId === rule).map((m) => m.message)]));
}

describe("lint: no import cycles", () => {
  it("fails two modules that import each other, and passes one-way imports", async () => {
    const cycle = await messagesOf("import-x/no-cycle", {
      "cycle-a.ts": 'import { b } from "./cycle-b";\nexport const a = () => b;\n',
      "cycle-b.ts": 'import { a } from "./cycle-a";\nexport const b = () => a;\n',
    });
    expect(cycle["cycle-a.ts"]).toEqual([expect.stringContaining("Dependency cycle")]);
    expect(cycle["cycle-b.ts"]).toEqual([expect.stringContaining("Dependency cycle")]);
    const oneWay = await messagesOf("import-x/no-cycle", {
      "line-a.ts": 'import { b } from "./line-b";\nexport const a = () => b;\n',
      "line-b.ts": "export const b = 1;\n",
    });
    expect(oneWay).toEqual({ "line-a.ts": [], "line-b.ts": [] });
  });
});

describe("lint: kebab-case file names", () => {
  it("fails camelCase, PascalCase and snake_case names; passes kebab-case with dotted parts", async () => {
    const messages = await messagesOf("ipos/kebab-case-file-names", {
      "replyCard.ts": "export const a = 1;\n",
      "ReplyCard.tsx": "export const b = 1;\n",
      "reply_card.ts": "export const c = 1;\n",
      "reply-card.server.ts": "export const d = 1;\n",
      "site-forum2.test.ts": "export const e = 1;\n",
    });
    expect(messages).toEqual({
      "replyCard.ts": [expect.stringContaining("not kebab-case")],
      "ReplyCard.tsx": [expect.stringContaining("not kebab-case")],
      "reply_card.ts": [expect.stringContaining("not kebab-case")],
      "reply-card.server.ts": [],
      "site-forum2.test.ts": [],
    });
  });
});
