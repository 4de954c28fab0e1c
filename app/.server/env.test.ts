import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_MAIL_FROM, EnvError, loadEnv } from "./env";

const dataDir = () => fs.mkdtempSync(path.join(os.tmpdir(), "ipos-env-"));

describe("loadEnv", () => {
  it("needs no set-up: SQLite in DATA_DIR, port 3000, demo content on, a generated secret kept for restarts", () => {
    const dir = dataDir();
    const env = loadEnv({ DATA_DIR: dir });
    expect(env).toMatchObject({ PORT: 3000, DATABASE_ENGINE: "sqlite", DEMO_CONTENT: true, BASE_URL: "http://localhost:3000" });
    expect(env.SQLITE_PATH).toBe(path.join(dir, "site.db"));
    expect(env.AUTH_SECRET.length).toBeGreaterThanOrEqual(32);
    expect(loadEnv({ DATA_DIR: dir }).AUTH_SECRET).toBe(env.AUTH_SECRET);
  });

  it("picks PostgreSQL from DATABASE_URL, with a pool of 10 connections unless DATABASE_POOL_SIZE says otherwise", () => {
    expect(loadEnv({ DATA_DIR: dataDir(), DATABASE_URL: "postgres://u@h/db" })).toMatchObject({ DATABASE_ENGINE: "postgres", DATABASE_POOL_SIZE: 10 });
    expect(loadEnv({ DATA_DIR: dataDir(), DATABASE_URL: "postgres://u@h/db", DATABASE_POOL_SIZE: "20" }).DATABASE_POOL_SIZE).toBe(20);
    for (const size of ["0", "101", "ten", "2.5"]) expect(() => loadEnv({ DATA_DIR: dataDir(), DATABASE_POOL_SIZE: size }), size).toThrow(/DATABASE_POOL_SIZE/);
  });

  it("takes MAIL_FROM as one address, with or without a display name, and keeps today's sender by default (issue 26 item 8)", () => {
    expect(loadEnv({ DATA_DIR: dataDir() }).MAIL_FROM).toBe(DEFAULT_MAIL_FROM);
    for (const from of ["hello@example.org", '"Inner Peace" <hello@example.org>', "Inner Peace <hello@mail.example.org>"]) {
      expect(loadEnv({ DATA_DIR: dataDir(), MAIL_FROM: from }).MAIL_FROM).toBe(from);
    }
    for (const from of [
      "hello",
      "a@example.org, b@example.org",
      "hello@example.org\r\nBcc: x@evil.example",
      "<>",
      "Name <not-an-address>",
      "x <a@example.org> y",
    ]) {
      expect(() => loadEnv({ DATA_DIR: dataDir(), MAIL_FROM: from }), from).toThrow(/MAIL_FROM: must be one address/);
    }
  });

  it("leaves the page-cache audit off unless asked for, with no file of its own", () => {
    const env = loadEnv({ DATA_DIR: dataDir() });
    expect([env.PAGE_CACHE_AUDIT, env.PAGE_CACHE_AUDIT_FILE]).toEqual([false, undefined]);
    expect(loadEnv({ DATA_DIR: dataDir(), PAGE_CACHE_AUDIT: "on", PAGE_CACHE_AUDIT_FILE: "/tmp/a.jsonl" })).toMatchObject({
      PAGE_CACHE_AUDIT: true,
      PAGE_CACHE_AUDIT_FILE: "/tmp/a.jsonl",
    });
    expect(() => loadEnv({ DATA_DIR: dataDir(), PAGE_CACHE_AUDIT: "sometimes" })).toThrow(/PAGE_CACHE_AUDIT: must be one of on\/off/);
  });

  it("stops with a message naming each bad variable", () => {
    const bad = () => loadEnv({ DATA_DIR: dataDir(), PORT: "eighty", DATABASE_URL: "mysql://x", DEMO_CONTENT: "maybe", BASE_URL: "nope" });
    expect(bad).toThrow(EnvError);
    try {
      bad();
    } catch (error) {
      const message = (error as Error).message;
      expect(message).toContain("PORT: must be a port number");
      expect(message).toContain("DATABASE_URL: must start with postgres://");
      expect(message).toContain("DEMO_CONTENT: must be one of on/off");
      expect(message).toContain("BASE_URL: must be an absolute URL");
    }
  });
});
