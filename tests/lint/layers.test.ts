// The layers of ADR 0016 are enforced by `npm run lint`: these run the project's own ESLint
// configuration over small modules placed (by file path) inside the layers, through ESLint's Node API.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ESLint } from "../../tools/lint/plugins.js";

const root = path.resolve(import.meta.dirname, "../..");
const eslint = new ESLint({ cwd: root });

/** The messages of the boundary rule for `code` linted as if it were the file at `file`. */
async function boundaryMessages(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result.messages.filter((m) => m.ruleId === "import-x/no-restricted-paths").map((m) => m.message);
}

describe("layer boundaries", () => {
  it("a component importing server code fails lint", async () => {
    const messages = await boundaryMessages(
      "app/components/layout/lint-probe.tsx",
      'import { servicesContext } from "~/.server/context";\nexport const probe = servicesContext;\n',
    );
    expect(messages).toEqual([expect.stringContaining("Server-only code (app/.server, *.server.ts) is imported only by route modules")]);
  });

  it("a feature importing a *.server.ts module fails lint", async () => {
    const messages = await boundaryMessages(
      "app/features/forge/lint-probe.tsx",
      'import handleRequest from "~/entry.server";\nexport const probe = handleRequest;\n',
    );
    expect(messages).toEqual([expect.stringContaining("Server-only code")]);
  });

  it("a feature importing another feature fails lint", async () => {
    const messages = await boundaryMessages(
      "app/features/forge/lint-probe.tsx",
      'import { TopicCard } from "~/features/forum/topic-card";\nexport const probe = TopicCard;\n',
    );
    expect(messages).toEqual([expect.stringContaining("A feature folder does not import another feature folder")]);
  });

  it("the database layer importing the domain fails lint", async () => {
    const messages = await boundaryMessages(
      "app/.server/db/lint-probe.ts",
      'import { progressOf } from "../domain/progression/progression-service";\nexport const probe = progressOf;\n',
    );
    expect(messages).toEqual([expect.stringContaining("The database layer sits below the domain")]);
  });

  it("app/ and database/ do not import each other", async () => {
    const fromApp = await boundaryMessages(
      "app/.server/lint-probe.ts",
      'import { migrateToLatest } from "../../database/migrate";\nexport const probe = migrateToLatest;\n',
    );
    const fromDatabase = await boundaryMessages("database/lint-probe.ts", 'import { slugify } from "../app/lib/slug";\nexport const probe = slugify;\n');
    expect(fromApp).toEqual([expect.stringContaining("app/ does not import database/")]);
    expect(fromDatabase).toEqual([expect.stringContaining("database/ does not import app/")]);
  });

  it("a route module naming page-cache tags fails lint; a read model may (issue 27)", async () => {
    const tags = 'import { readsFrom, tag } from "~/.server/cache/page-tags";\nexport function loader() {\n  readsFrom(tag.site);\n}\n';
    expect(await boundaryMessages("app/routes/pages/lint-probe.tsx", tags)).toEqual([
      expect.stringContaining("Page-cache tags (readsFrom, wrote, changedByRead, …) are named by read models and services"),
    ]);
    expect(await boundaryMessages("app/root.tsx", tags)).toEqual([expect.stringContaining("Page-cache tags")]);
    expect(await boundaryMessages("app/.server/domain/forum/lint-probe.ts", tags.replace("~/.server/cache/page-tags", "../../cache/page-tags"))).toEqual([]);
  });

  it("a route module importing a repository fails lint; a read model may (issue 27)", async () => {
    const repository = 'import { findTopic } from "~/.server/domain/forum/section-repository";\nexport const probe = findTopic;\n';
    expect(await boundaryMessages("app/routes/forum/lint-probe.tsx", repository)).toEqual([
      expect.stringContaining("A route module does not import a repository"),
    ]);
    expect(await boundaryMessages("app/.server/domain/forum/lint-probe.ts", repository.replace("~/.server/domain/forum/", "./"))).toEqual([]);
  });

  it("legal imports pass: a route module imports server code and features, a feature imports components", async () => {
    const route = await boundaryMessages(
      "app/routes/forge/lint-probe.tsx",
      'import { servicesContext } from "~/.server/context";\nimport { TopicCard } from "~/features/forum/topic-card";\nexport const probe = [servicesContext, TopicCard];\n',
    );
    const feature = await boundaryMessages(
      "app/features/forge/lint-probe.tsx",
      'import { Button } from "~/components/ui/button";\nimport { slugify } from "~/lib/slug";\nimport { CREATION_LABELS } from "./creation-types";\nexport const probe = [Button, slugify, CREATION_LABELS];\n',
    );
    const server = await boundaryMessages(
      "server/lint-probe.ts",
      'import { migrateToLatest } from "../database/migrate";\nimport { createServices } from "~/.server/services";\nexport const probe = [migrateToLatest, createServices];\n',
    );
    expect(route).toEqual([]);
    expect(feature).toEqual([]);
    expect(server).toEqual([]);
  });
});
