import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import * as account from "~/schemas/account";
import * as challenges from "~/schemas/challenges";
import * as comments from "~/schemas/creation-comment";
import * as council from "~/schemas/council";
import * as events from "~/schemas/events";
import * as forum from "~/schemas/forum";
import * as newsletter from "~/schemas/newsletter";
import * as settings from "~/schemas/settings";
import { FORM_FIELDS_MAX, formKey, knownFields, parseForm, parseFormOrRefusal, readForm, UNREADABLE } from "./forms";

const post = (body: string) => new Request("http://localhost/join", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body });
const joinBody = "fullName=Ada+Lovelace&email=ada%40example.org&password=Secret123&confirmPassword=Secret123&termsAccepted=on";

describe("form bounds and known fields (issue 25, item 2)", () => {
  it("knows the join form's names, nested ones dotted", () => {
    expect([...knownFields(account.joinSchema)].sort()).toEqual(
      [
        "bio",
        "confirmPassword",
        "email",
        "fullName",
        "interests.creativity",
        "interests.fitness",
        "interests.meditation",
        "interests.philosophy",
        "password",
        "termsAccepted",
        "timeZone",
      ].sort(),
    );
  });

  it("reads the names of every form schema the actions parse", () => {
    const schemas = [account, challenges, comments, council, events, forum, newsletter, settings]
      .flatMap((module) => Object.entries(module))
      .filter(([name, value]) => name.endsWith("Schema") && (value as z.ZodMiniType)._zod?.def.type === "object");
    expect(schemas.length).toBeGreaterThan(20);
    for (const [name, schema] of schemas) expect(knownFields(schema as z.ZodMiniType).size, name).toBeGreaterThan(0);
    expect(() => knownFields(z.string())).toThrow();
  });

  it("leaves every name the schema does not know out of what it read", async () => {
    const parsed = await parseForm(post(`${joinBody}&interests.fitness=on&interests.bogus=on&stranger=x`), account.joinSchema, account.JOIN_CHECKBOXES);
    expect(parsed.ok).toBe(true);
    expect(parsed.raw.stranger).toBeUndefined();
    expect(parsed.raw.interests).toEqual({ fitness: true, meditation: false, philosophy: false, creativity: false });
  });

  it("refuses deep names, long names and too many fields before building anything", async () => {
    for (const extra of [
      `interests${".a".repeat(500_000)}=on`,
      "a.b.c.d=1",
      `${"n".repeat(101)}=1`,
      Array.from({ length: FORM_FIELDS_MAX }, (_, i) => `f${i}=1`).join("&"),
    ]) {
      const refused = await parseFormOrRefusal(post(`${joinBody}&${extra}`), account.joinSchema, account.JOIN_CHECKBOXES);
      expect(refused).toMatchObject({ ok: false, unreadable: true, errors: { form: UNREADABLE }, raw: {} });
      await expect(readForm(post(`${joinBody}&${extra}`))).rejects.toMatchObject({ init: { status: 400 } });
      await expect(parseForm(post(`${joinBody}&${extra}`), account.joinSchema)).rejects.toMatchObject({ init: { status: 400 } });
    }
    // The bounds themselves are still a form.
    const widest = Array.from({ length: FORM_FIELDS_MAX - 7 }, (_, i) => `f${i}=1`).join("&");
    expect((await parseFormOrRefusal(post(`${joinBody}&a.b.c=1&${"n".repeat(100)}=1&${widest}`), account.joinSchema)).unreadable).toBe(false);
  });
});

/** What is wrong with how a route module makes its form key (empty when nothing). */
function formKeyFaults(source: string): string[] {
  const faults: string[] = [];
  if (/\brandomUUID\s*\(/.test(source)) faults.push("makes a key of its own (randomUUID)");
  if (/\bsubmissionKey\b/.test(source) && !/\bformKey\(\)/.test(source)) faults.push("carries a submissionKey not made by formKey()");
  return faults;
}

const routeModules = (dir: string): string[] =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    return entry.isDirectory() ? routeModules(file) : /\.tsx?$/.test(entry.name) ? [file] : [];
  });

describe("one form key (issue 27, item 2; ADR 0052)", () => {
  it("is a fresh key at each render, in the form the forms' schemas take", () => {
    const keys = new Set(Array.from({ length: 20 }, () => formKey()));
    expect(keys.size).toBe(20);
    for (const key of keys) expect(z.safeParse(forum.submissionKeySchema, key).success).toBe(true);
  });

  it("is the one way a route makes a form's key", () => {
    const routes = routeModules(path.join(import.meta.dirname, "../routes"));
    const keyed = routes.filter((file) => /\bsubmissionKey\b/.test(fs.readFileSync(file, "utf8")));
    expect(keyed.length).toBeGreaterThanOrEqual(8);
    for (const file of routes) expect(formKeyFaults(fs.readFileSync(file, "utf8")), path.relative(process.cwd(), file)).toEqual([]);
    // What the check refuses: a loader making its own key, or a key from anywhere but formKey().
    expect(formKeyFaults("return { submissionKey: crypto.randomUUID() };")).toHaveLength(2);
    expect(formKeyFaults('import { randomUUID } from "node:crypto"; const k = randomUUID();')).toEqual(["makes a key of its own (randomUUID)"]);
    expect(formKeyFaults("return { submissionKey: oneTimeFormKey() };")).toEqual(["carries a submissionKey not made by formKey()"]);
    expect(formKeyFaults("return { submissionKey: formKey() };")).toEqual([]);
  });
});
