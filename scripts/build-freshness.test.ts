import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { staleBuildReason } from "./build-freshness.js";

/** `npm start` builds only a stale build (issue 33): the rule, on a tree of its own. */

let root = "";
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

function tree() {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "ipos-freshness-"));
  const write = (file: string, at: number) => {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), "x");
    fs.utimesSync(path.join(root, file), at / 1000, at / 1000);
  };
  return write;
}

const hour = 3_600_000;
const now = Date.now();

describe("staleBuildReason", () => {
  it("builds a fresh clone, which has no build", () => {
    const write = tree();
    write("app/root.tsx", now - hour);
    expect(staleBuildReason(root)).toBe("there is no build yet");
    write("build/server/index.js", now);
    expect(staleBuildReason(root)).toBe("there is no build yet"); // no client half
  });

  it("starts without building when nothing changed since the build", () => {
    const write = tree();
    for (const file of ["app/routes/a.tsx", "server/app.ts", "database/migrations/index.ts", "content/faq.md", "public/favicon.svg", "package.json"]) {
      write(file, now - hour);
    }
    write("build/client/assets/a.js", now);
    write("build/server/index.js", now);
    expect(staleBuildReason(root)).toBeNull();
    // A test is no input of the build.
    write("app/lib/text.test.ts", now + hour);
    expect(staleBuildReason(root)).toBeNull();
  });

  it("builds again once a source, its content or its configuration changed", () => {
    for (const changed of ["app/routes/deep/b.tsx", "server/http.ts", "content/faq.md", "vite.config.ts", "package-lock.json"]) {
      const write = tree();
      write("app/root.tsx", now - hour);
      write("build/client/assets/a.js", now);
      write("build/server/index.js", now);
      write(changed, now + hour);
      expect(staleBuildReason(root), changed).toBe("the sources changed since the last build");
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
