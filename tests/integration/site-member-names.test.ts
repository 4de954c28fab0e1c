import { describe, expect, it } from "vitest";
import { readable, siteOverHttp } from "./site-server";
import { cookieHeader, ENGINE } from "./test-services";

// Issue 25, item 11: a name reaches mail bodies and bylines, so it is one line, as titles are.

const web = siteOverHttp({ demo: false });
const db = () => web.site.services.db;
const PASSWORD = "Secret123";
const ONE_LINE = "Full name must be on one line";
// (A NUL never gets this far: every form loses its NULs before it is read, app/.server/forms.ts.)
const BROKEN_NAMES = ["Ana\nBob", "Ana\r\nBcc: someone@example.org", "Ana\tBob", "Ana\u0085Bob", "Ana\u2028Bob"];

let n = 0;
const join = (fullName: string, email: string) =>
  web.http.post("/join", { fullName, email, password: PASSWORD, confirmPassword: PASSWORD, termsAccepted: "on" }, { "x-forwarded-for": `198.51.100.${++n}` });

describe(`a member's name on ${ENGINE}`, () => {
  it("join refuses a name with a line break or a control character, with the field's message, and creates nobody", async () => {
    for (const fullName of BROKEN_NAMES) {
      const email = `broken-name-${++n}@example.org`;
      const res = await join(fullName, email);
      expect(res.status, JSON.stringify(fullName)).toBe(400);
      expect(await readable(res)).toContain(ONE_LINE);
      expect(await db().selectFrom("member").select("id").where("email", "=", email).executeTakeFirst()).toBeUndefined();
    }
    expect((await join("Ana Bob", "one-line-name@example.org")).status).toBe(200);
  });

  it("settings refuse such a name too, changing nothing", async () => {
    const email = "renamer@example.org";
    const joined = await join("Ana Renamer", email);
    expect(joined.status).toBe(200);
    const cookie = cookieHeader(joined.headers);
    const name = async () => (await db().selectFrom("member").select("name").where("email", "=", email).executeTakeFirstOrThrow()).name;
    for (const fullName of BROKEN_NAMES) {
      const res = await web.http.post("/settings?intent=profile", { fullName, bio: "", timeZone: "UTC" }, { cookie });
      expect(res.status, JSON.stringify(fullName)).toBe(400);
      expect(await readable(res)).toContain(ONE_LINE);
      expect(await name()).toBe("Ana Renamer");
    }
    expect((await web.http.post("/settings?intent=profile", { fullName: "Ana Bob", bio: "", timeZone: "UTC" }, { cookie })).status).toBe(200);
    expect(await name()).toBe("Ana Bob");
  });
});
