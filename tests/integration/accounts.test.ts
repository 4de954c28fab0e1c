import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EMAIL_TAKEN, INVALID_CREDENTIALS, registerMember, signInMember, signOutMember } from "~/.server/domain/accounts/account-service";
import { SIGN_IN_LIMIT } from "~/lib/limits";
import { loadViewer } from "~/.server/session";
import { servicesContext } from "~/.server/context";
import { RouterContextProvider } from "react-router";
import { joinSchema } from "~/schemas/account";
import { cookieHeader, createTestSite, ENGINE, type TestSite } from "./test-services";

let site: TestSite;
beforeAll(async () => {
  site = await createTestSite();
});
afterAll(async () => {
  await site.destroy();
});

let counter = 0;
function joinValues(overrides: Record<string, unknown> = {}) {
  counter += 1;
  return joinSchema.parse({
    fullName: "Ada Lovelace",
    email: `ada${counter}@example.org`,
    password: "Secret123",
    confirmPassword: "Secret123",
    bio: "Counting breaths.",
    interests: { meditation: true, fitness: false, philosophy: true, creativity: false },
    termsAccepted: true,
    ...overrides,
  });
}

async function viewerFor(cookie: string) {
  const context = new RouterContextProvider();
  context.set(servicesContext, site.services);
  const { viewer } = await loadViewer(context, new Request("http://localhost:3000/", { headers: { cookie } }));
  return viewer;
}

const headers = () => new Headers({ "user-agent": "vitest" });
let visitors = 0;
/** A request from a visitor of its own: every join here comes from a different address. */
const visitor = () => ({ headers: headers(), ip: `10.50.${Math.floor(++visitors / 250)}.${visitors % 250}` });

describe(`accounts on ${ENGINE}`, () => {
  it("join creates the member with a hashed password and signs them in", async () => {
    const values = joinValues();
    const result = await registerMember(site.services, values, visitor());
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const setCookie = result.headers.getSetCookie().join("\n");
    expect(setCookie).toMatch(/ipos\.session_token=/);
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);

    const member = await site.services.db
      .selectFrom("member")
      .select(["id", "name", "email", "bio", "interests", "handle", "role"])
      .where("email", "=", values.email)
      .executeTakeFirstOrThrow();
    expect(member).toMatchObject({ name: "Ada Lovelace", bio: "Counting breaths.", role: "member" });
    expect(JSON.parse(member.interests)).toEqual(["meditation", "philosophy"]);
    const account = await site.services.db
      .selectFrom("account")
      .select(["password", "provider_id"])
      .where("member_id", "=", member.id)
      .executeTakeFirstOrThrow();
    expect(account.provider_id).toBe("credential");
    expect(account.password).not.toContain("Secret123");
    expect(account.password!.length).toBeGreaterThan(40);

    const viewer = await viewerFor(cookieHeader(result.headers));
    expect(viewer?.email).toBe(values.email);
  });

  it("marks the session cookie Secure when the site is served over HTTPS", async () => {
    const { createAuth } = await import("~/.server/auth");
    const auth = createAuth({ db: site.services.db, engine: site.services.engine, secret: site.services.env.AUTH_SECRET, baseURL: "https://ipos.example" });
    const result = await registerMember({ ...site.services, auth }, joinValues(), visitor());
    if (!result.ok) throw new Error("join failed");
    const token = result.headers.getSetCookie().find((c) => c.includes("ipos.session_token="))!;
    expect(token).toMatch(/;\s*Secure/i);
    expect(token).toMatch(/HttpOnly/i);
  });

  it("finds the session cookie among others, under its __Secure- name on HTTPS, and nothing under a lookalike name", async () => {
    const { createAuth } = await import("~/.server/auth");
    const auth = createAuth({ db: site.services.db, engine: site.services.engine, secret: site.services.env.AUTH_SECRET, baseURL: "https://ipos.example" });
    const values = joinValues();
    const result = await registerMember({ ...site.services, auth }, values, visitor());
    if (!result.ok) throw new Error("join failed");
    const pair = cookieHeader(result.headers);
    expect(pair).toMatch(/^__Secure-ipos\.session_token=/);
    const context = new RouterContextProvider();
    context.set(servicesContext, { ...site.services, auth });
    const viewerWith = async (cookie: string) => (await loadViewer(context, new Request("https://ipos.example/", { headers: { cookie } }))).viewer;
    expect((await viewerWith(`ipos_flash=joined; ${pair}; theme=dark`))?.email).toBe(values.email);
    expect(await viewerWith(`x${pair}`)).toBeNull();
    expect(await viewerWith("theme=dark")).toBeNull();
  });

  it("gives each member a unique handle", async () => {
    const a = await registerMember(site.services, joinValues({ fullName: "Same Name" }), visitor());
    const b = await registerMember(site.services, joinValues({ fullName: "Same Name" }), visitor());
    expect(a.ok && b.ok).toBe(true);
    const handles = await site.services.db.selectFrom("member").select("handle").where("name", "=", "Same Name").execute();
    expect(new Set(handles.map((h) => h.handle)).size).toBe(2);
  });

  it("members of one name joining at the same moment all get in, each with a handle of their own", async () => {
    // Found by the browser suite on PostgreSQL: both joins saw the same free handle, the second
    // insert hit the unique index, and that member was told their email was taken.
    const results = await Promise.all(Array.from({ length: 6 }, () => registerMember(site.services, joinValues({ fullName: "Twin Name" }), visitor())));
    expect(results.map((r) => (r.ok ? 200 : r.status))).toEqual([200, 200, 200, 200, 200, 200]);
    const handles = await site.services.db.selectFrom("member").select("handle").where("name", "=", "Twin Name").execute();
    expect(new Set(handles.map((h) => h.handle)).size).toBe(6);
  });

  it("a taken email is an error on Email and makes no second account", async () => {
    const values = joinValues();
    expect((await registerMember(site.services, values, visitor())).ok).toBe(true);
    const again = await registerMember(site.services, { ...values, email: values.email.toUpperCase() }, visitor());
    expect(again).toEqual({ ok: false, status: 400, errors: { email: EMAIL_TAKEN } });
    const rows = await site.services.db.selectFrom("member").select("id").where("email", "=", values.email).execute();
    expect(rows).toHaveLength(1);
  });

  it("two joins with one email at the same moment make one account", async () => {
    const values = joinValues();
    const results = await Promise.all([1, 2, 3].map(() => registerMember(site.services, values, visitor())));
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    const rows = await site.services.db.selectFrom("member").select("id").where("email", "=", values.email).execute();
    expect(rows).toHaveLength(1);
  });

  it("signs in with the right password and refuses a wrong one with one message", async () => {
    const values = joinValues();
    await registerMember(site.services, values, visitor());
    const ok = await signInMember(site.services, { email: values.email, password: "Secret123", rememberMe: false }, { headers: headers(), ip: "10.0.0.1" });
    expect(ok.ok).toBe(true);

    const wrongPassword = await signInMember(
      site.services,
      { email: values.email, password: "Wrong1234", rememberMe: false },
      { headers: headers(), ip: "10.0.0.1" },
    );
    expect(wrongPassword).toEqual({ ok: false, status: 400, errors: { form: INVALID_CREDENTIALS } });
    const wrongEmail = await signInMember(
      site.services,
      { email: "nobody@example.org", password: "Secret123", rememberMe: false },
      { headers: headers(), ip: "10.0.0.1" },
    );
    expect(wrongEmail).toEqual({ ok: false, status: 400, errors: { form: INVALID_CREDENTIALS } });
  });

  it("'Remember me' gives a 30-day cookie; without it the cookie ends with the browser", async () => {
    const values = joinValues();
    await registerMember(site.services, values, visitor());
    const remembered = await signInMember(
      site.services,
      { email: values.email, password: "Secret123", rememberMe: true },
      { headers: headers(), ip: "10.0.0.2" },
    );
    const once = await signInMember(site.services, { email: values.email, password: "Secret123", rememberMe: false }, { headers: headers(), ip: "10.0.0.2" });
    if (!remembered.ok || !once.ok) throw new Error("sign-in failed");
    const rememberedToken = remembered.headers.getSetCookie().find((c) => c.startsWith("ipos.session_token="))!;
    const onceToken = once.headers.getSetCookie().find((c) => c.startsWith("ipos.session_token="))!;
    expect(rememberedToken).toMatch(/Max-Age=2592000/i);
    expect(onceToken).not.toMatch(/Max-Age|Expires/i);
    expect(rememberedToken).toMatch(/HttpOnly/i);

    const sessions = await site.services.db
      .selectFrom("session")
      .innerJoin("member", "member.id", "session.member_id")
      .select("session.expires_at")
      .where("member.email", "=", values.email)
      .orderBy("session.created_at", "desc")
      .execute();
    const lifetimes = sessions.map((s) => (new Date(s.expires_at).getTime() - Date.now()) / 86_400_000);
    expect(Math.max(...lifetimes)).toBeGreaterThan(29);
    expect(Math.min(...lifetimes)).toBeLessThan(1.1);
  });

  it(`allows ${SIGN_IN_LIMIT} failed attempts per address in 15 minutes, then answers 429`, async () => {
    const values = joinValues();
    await registerMember(site.services, values, visitor());
    for (let i = 0; i < SIGN_IN_LIMIT; i++) {
      // A different IP each time: the limit per address must hold on its own.
      const r = await signInMember(site.services, { email: values.email, password: "Wrong1234", rememberMe: false }, { headers: headers(), ip: `10.1.0.${i}` });
      expect(r.ok ? 200 : r.status).toBe(400);
    }
    const blocked = await signInMember(
      site.services,
      { email: values.email, password: "Secret123", rememberMe: false },
      { headers: headers(), ip: "10.1.1.1" },
    );
    expect(blocked).toEqual({ ok: false, status: 429, errors: { form: "Too many attempts. Try again in 15 minutes." } });
  });

  it("limits failed attempts per IP across addresses", async () => {
    const ip = "10.2.0.1";
    for (let i = 0; i < SIGN_IN_LIMIT; i++) {
      await signInMember(site.services, { email: `ghost${i}@example.org`, password: "Wrong1234", rememberMe: false }, { headers: headers(), ip });
    }
    const blocked = await signInMember(site.services, { email: "someone@example.org", password: "x", rememberMe: false }, { headers: headers(), ip });
    expect(blocked.ok ? 200 : blocked.status).toBe(429);
    const elsewhere = await signInMember(
      site.services,
      { email: "someone@example.org", password: "x", rememberMe: false },
      { headers: headers(), ip: "10.2.0.2" },
    );
    expect(elsewhere.ok ? 200 : elsewhere.status).toBe(400);
  });

  it("sign out ends the session", async () => {
    const values = joinValues();
    const joined = await registerMember(site.services, values, visitor());
    if (!joined.ok) throw new Error("join failed");
    const cookie = cookieHeader(joined.headers);
    expect(await viewerFor(cookie)).not.toBeNull();
    await signOutMember(site.services, new Headers({ cookie }));
    expect(await viewerFor(cookie)).toBeNull();
  });

  it("the account and its session survive a restart", async () => {
    const values = joinValues();
    const joined = await registerMember(site.services, values, visitor());
    if (!joined.ok) throw new Error("join failed");
    const cookie = cookieHeader(joined.headers);
    site = await site.reopen();
    expect((await viewerFor(cookie))?.email).toBe(values.email);
    const again = await signInMember(site.services, { email: values.email, password: "Secret123", rememberMe: true }, { headers: headers(), ip: "10.3.0.1" });
    expect(again.ok).toBe(true);
  });
});

describe(`roles on ${ENGINE}`, () => {
  it("grants and revokes a role by email, as `npm run admin` does", async () => {
    const { setRole } = await import("~/.server/domain/accounts/roles");
    const values = joinValues();
    await registerMember(site.services, values, visitor());
    expect(await setRole(site.services.db, values.email.toUpperCase(), "admin")).toBe(true);
    const role = async () => (await site.services.db.selectFrom("member").select("role").where("email", "=", values.email).executeTakeFirstOrThrow()).role;
    expect(await role()).toBe("admin");
    expect(await setRole(site.services.db, values.email, "member")).toBe(true);
    expect(await role()).toBe("member");
    expect(await setRole(site.services.db, "nobody@example.org", "admin")).toBe(false);
  });
});
