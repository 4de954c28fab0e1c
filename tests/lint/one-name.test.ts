// One name per thing (STYLE.md, ADR 0053): no two modules export a function, constant or type of one
// name, and the one `Executor` type is declared in app/.server/db/executor.ts alone. Two `editPost`s
// with different meanings let an import of the wrong one compile.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");

/** What a route module exports because React Router asks for it by that name. */
const ROUTE_EXPORTS = new Set([
  "loader",
  "action",
  "meta",
  "links",
  "headers",
  "handle",
  "ErrorBoundary",
  "HydrateFallback",
  "Layout",
  "shouldRevalidate",
  "clientLoader",
  "clientAction",
]);

/**
 * Files named after a database engine implement one signature twice on purpose (STYLE habit 5:
 * `search/sqlite.ts` and `search/postgres.ts` both export `searchDiscussions`); the module that picks
 * one by engine is the name's one meaning.
 */
const ENGINE_FILE = /(^|\/)(sqlite|postgres)\.ts$/;

// A default export's name is no name an importer uses, so it is not read.
const EXPORTED = /^export\s+(?:declare\s+)?(?:async\s+)?(?:function\*?|const|let|class|type|interface|enum)\s+([A-Za-z_$][\w$]*)/gm;
const EXECUTOR = /^(?:export\s+)?(?:type|interface)\s+Executor\b/m;
const EXECUTOR_HOME = "app/.server/db/executor.ts";

/** Names exported by more than one module, and the modules that declare an Executor of their own. */
export function nameClashes(files: Record<string, string>) {
  const where = new Map<string, string[]>();
  const executors: string[] = [];
  for (const [file, source] of Object.entries(files)) {
    if (EXECUTOR.test(source) && file !== EXECUTOR_HOME) executors.push(file);
    if (ENGINE_FILE.test(file)) continue;
    const isRoute = file.startsWith("app/routes/") || file === "app/root.tsx";
    for (const [, name] of source.matchAll(EXPORTED)) {
      if (isRoute && ROUTE_EXPORTS.has(name)) continue;
      where.set(name, [...new Set([...(where.get(name) ?? []), file])]);
    }
  }
  const clashes = [...where].filter(([, in_]) => in_.length > 1).map(([name, in_]) => `${name}: ${in_.sort().join(", ")}`);
  return { clashes: clashes.sort(), executors: executors.sort() };
}

function sourcesUnder(...dirs: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const dir of dirs) {
    for (const entry of fs.readdirSync(path.join(root, dir), { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || !/\.tsx?$/.test(entry.name) || /\.test\.tsx?$/.test(entry.name)) continue;
      const file = path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join("/");
      out[file] = fs.readFileSync(path.join(root, file), "utf8");
    }
  }
  return out;
}

describe("one name per thing", () => {
  it("no two modules of app/ and server/ export one name, and one module declares Executor", () => {
    expect(nameClashes(sourcesUnder("app", "server"))).toEqual({ clashes: [], executors: [] });
  });

  it("the check finds the clashes this rule was written for, built here", () => {
    const found = nameClashes({
      "app/.server/domain/posts/pipeline.ts": "export async function editPost(services) {}\nexport type PostKind = 'reply';\n",
      "app/.server/domain/forum/forum-service.ts": "export async function editPost(services, viewer) {}\nexport type PostKind = 'discussion' | 'reply';\n",
      "app/.server/domain/forum/forum-repository.ts": 'type Executor = Pick<Db, "selectFrom">;\n',
      [EXECUTOR_HOME]: "export type Executor = Pick<Db, 'selectFrom'>;\n",
      // Allowed: React Router's names in route modules, and one signature per engine.
      "app/routes/forum/topic.tsx": "export async function loader() {}\nexport default function Topic() {}\n",
      "app/routes/forum/discussion.tsx": "export async function loader() {}\nexport default function Discussion() {}\n",
      "app/.server/db/search/sqlite.ts": "export async function searchDiscussions() {}\n",
      "app/.server/db/search/postgres.ts": "export async function searchDiscussions() {}\n",
    });
    expect(found).toEqual({
      clashes: [
        "PostKind: app/.server/domain/forum/forum-service.ts, app/.server/domain/posts/pipeline.ts",
        "editPost: app/.server/domain/forum/forum-service.ts, app/.server/domain/posts/pipeline.ts",
      ],
      executors: ["app/.server/domain/forum/forum-repository.ts"],
    });
  });
});
