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
import { FORM_FIELDS_MAX, knownFields, parseForm, parseFormOrRefusal, readForm, UNREADABLE } from "./forms";

const post = (body: string) =>
  new Request("http://localhost/join", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body });
const joinBody = "fullName=Ada+Lovelace&email=ada%40example.org&password=Secret123&confirmPassword=Secret123&termsAccepted=on";

describe("form bounds and known fields (issue 25, item 2)", () => {
  it("knows the join form's names, nested ones dotted", () => {
    expect([...knownFields(account.joinSchema)].sort()).toEqual(
      ["bio", "confirmPassword", "email", "fullName", "interests.creativity", "interests.fitness", "interests.meditation", "interests.philosophy", "password", "termsAccepted", "timeZone"].sort(),
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
    for (const extra of [`interests${".a".repeat(500_000)}=on`, "a.b.c.d=1", `${"n".repeat(101)}=1`, Array.from({ length: FORM_FIELDS_MAX }, (_, i) => `f${i}=1`).join("&")]) {
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
