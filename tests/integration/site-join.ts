import { expect } from "vitest";
import { grantXp, memberIdByEmail } from "../factories";
import type { siteOverHttp } from "./site-server";
import { cookieHeader } from "./test-services";

type Web = ReturnType<typeof siteOverHttp>;

export const JOIN_PASSWORD = "Secret123";
let joins = 0;

/**
 * A member who joined through the join form, with the session the join opened and, if asked, XP
 * granted. Each joins from an address of their own (5 joins an hour per IP, ADR 0008), in
 * 198.51.0.0/16 below TEST-NET-2 (198.51.100.0/24), which the files' other requests use.
 */
export async function joinOverHttp(web: Web, name: string, options: { xp?: number } = {}) {
  joins += 1;
  const email = `joiner${joins}-${Date.now()}@example.org`;
  const res = await web.http.post(
    "/join",
    { fullName: name, email, password: JOIN_PASSWORD, confirmPassword: JOIN_PASSWORD, termsAccepted: "on" },
    { "x-forwarded-for": `198.51.${Math.floor(joins / 250)}.${(joins % 250) + 1}` },
  );
  expect(res.status).toBe(200);
  const id = await memberIdByEmail(web.site.services.db, email);
  if (options.xp) await grantXp(web.site.services.db, id, options.xp);
  return { cookie: cookieHeader(res.headers), email, id, name };
}

/** A form post as a browser sends it, with repeated fields (checkbox groups) in order. */
export function postFields(web: Web, path: string, fields: [string, string][], cookie: string) {
  const body = new URLSearchParams();
  for (const [k, v] of fields) body.append(k, v);
  return fetch(web.http.base + path, {
    method: "POST",
    redirect: "manual",
    headers: { origin: web.http.base, "content-type": "application/x-www-form-urlencoded", cookie },
    body: body.toString(),
  });
}
