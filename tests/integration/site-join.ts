import { expect } from "vitest";
import type { Viewer } from "~/.server/context";
import { registerMember } from "~/.server/domain/accounts/account-service";
import { joinSchema } from "~/schemas/account";
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

/**
 * A member who joined through the account service rather than the form (the join's own requests
 * stay out of what a test counts), from `ip`: the Cookie header of the session the join opened.
 */
export async function joinedCookie(web: Web, name: string, ip: string) {
  const values = joinSchema.parse({
    fullName: name,
    email: `${name.toLowerCase().replaceAll(" ", "-")}-${Date.now()}@example.org`,
    password: JOIN_PASSWORD,
    confirmPassword: JOIN_PASSWORD,
    bio: "",
    interests: { meditation: true, fitness: false, philosophy: false, creativity: false },
    termsAccepted: true,
  });
  const joined = await registerMember(web.site.services, values, { headers: new Headers({ "user-agent": "vitest" }), ip });
  if (!joined.ok) throw new Error("join");
  return cookieHeader(joined.headers);
}

/** The Viewer the domain services take, of a member who joined through the site (to post as them). */
export function viewerOf(web: Web, id: string): Promise<Viewer> {
  return web.site.services.db.selectFrom("member").select(["id", "name", "email", "handle", "role", "avatar"]).where("id", "=", id).executeTakeFirstOrThrow();
}

/** Asks in the settings to move the account to `newAddress`: the token of the link mailed there. */
export async function emailChangeToken(web: Web, cookie: string, newAddress: string) {
  expect((await web.http.post("/settings?intent=email", { email: newAddress, currentPassword: JOIN_PASSWORD }, { cookie })).status).toBe(200);
  const mail = await web.site.services.db
    .selectFrom("mail_outbox")
    .select("text_body")
    .where("to_address", "=", newAddress)
    .where("kind", "=", "email-change")
    .orderBy("id", "desc")
    .executeTakeFirstOrThrow();
  return decodeURIComponent(mail.text_body.match(/token=([^\s]+)/)![1]!);
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
