import { describe, expect, it } from "vitest";
import { REMEMBERED_SESSION_SECONDS } from "~/.server/auth";
import { joinedCookie } from "./site-join";
import { siteOverHttp } from "./site-server";
import { ENGINE, statementsDuring as statementsOf } from "./test-services";

const web = siteOverHttp({ demo: false });
const DAY = 86_400_000;

async function join(name: string) {
  const cookie = await joinedCookie(web, name, "10.89.0.1");
  const token = decodeURIComponent(/ipos\.session_token=([^;]+)/.exec(cookie)![1]!).split(".")[0]!;
  return { cookie, token };
}

const statementsDuring = (fn: () => Promise<unknown>) => statementsOf(web.site.services.db, fn);

const setExpiry = (token: string, at: Date) =>
  web.site.services.db.updateTable("session").set({ expires_at: at.toISOString() }).where("token", "=", token).execute();

// loadViewer answers a settled session itself and leaves everything else to Better Auth (ADR 0032).
describe(`the signed-in viewer on ${ENGINE}`, () => {
  it("comes from one statement for a settled session, and nothing is written or set", async () => {
    const { cookie } = await join("Settled Reader");
    expect((await web.http.get("/dashboard", { cookie })).status).toBe(200);
    let res: Response | undefined;
    const statements = await statementsDuring(async () => {
      res = await web.http.get("/dashboard", { cookie });
    });
    expect(res!.status).toBe(200);
    expect(await res!.text()).toContain("Settled Reader");
    expect(res!.headers.getSetCookie().filter((c) => c.includes("session_token"))).toEqual([]);
    // One statement reads session and member together (Better Auth's own path reads them in two).
    expect(statements.filter((s) => s.includes('"session"'))).toEqual([expect.stringMatching(/from "session" inner join "member"/)]);
    expect(statements.some((s) => /^(insert|update|delete)/i.test(s.trim()))).toBe(false);
  });

  it("is nobody with a tampered cookie, after sign-out and once the session is deleted", async () => {
    const { cookie, token } = await join("Revoked Reader");
    expect((await web.http.get("/dashboard", { cookie })).status).toBe(200);
    const tampered = cookie.replace(/(ipos\.session_token=[^.;]+\.)(.)/, (_, head: string, first: string) => head + (first === "A" ? "B" : "A"));
    expect(tampered).not.toBe(cookie);
    expect((await web.http.get("/dashboard", { cookie: tampered })).headers.get("location")).toMatch(/^\/signin/);
    // Another token signed with the wrong secret.
    const forged = cookie.replace(/ipos\.session_token=[^;]+/, `ipos.session_token=${encodeURIComponent(`${token}.${"A".repeat(43)}=`)}`);
    expect((await web.http.get("/dashboard", { cookie: forged })).headers.get("location")).toMatch(/^\/signin/);

    expect((await web.http.post("/signout", {}, { cookie })).status).toBeLessThan(400);
    expect((await web.http.get("/dashboard", { cookie })).headers.get("location")).toMatch(/^\/signin/);

    const second = await join("Deleted Session");
    expect((await web.http.get("/dashboard", { cookie: second.cookie })).status).toBe(200);
    await web.site.services.db.deleteFrom("session").where("token", "=", second.token).execute();
    expect((await web.http.get("/dashboard", { cookie: second.cookie })).headers.get("location")).toMatch(/^\/signin/);
  });

  it("leaves an expired session and a session due for its refresh to Better Auth", async () => {
    const expired = await join("Expired Reader");
    await setExpiry(expired.token, new Date(Date.now() - 1000));
    const gone = await web.http.get("/dashboard", { cookie: expired.cookie });
    expect(gone.headers.get("location")).toMatch(/^\/signin/);
    expect(gone.headers.getSetCookie().some((c) => /ipos\.session_token=;/.test(c))).toBe(true);

    // Refreshed once a day (updateAge): the expiry moves forward and the cookie is set again.
    const due = await join("Due Reader");
    await setExpiry(due.token, new Date(Date.now() + REMEMBERED_SESSION_SECONDS * 1000 - 2 * DAY));
    const refreshed = await web.http.get("/dashboard", { cookie: due.cookie });
    expect(refreshed.status).toBe(200);
    expect(refreshed.headers.getSetCookie().some((c) => c.startsWith("ipos.session_token="))).toBe(true);
    const row = await web.site.services.db.selectFrom("session").select("expires_at").where("token", "=", due.token).executeTakeFirstOrThrow();
    expect(new Date(row.expires_at).getTime()).toBeGreaterThan(Date.now() + REMEMBERED_SESSION_SECONDS * 1000 - DAY);
  });
});
