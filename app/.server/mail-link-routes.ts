import { data, type RouterContextProvider } from "react-router";
import { requestContext, servicesContext, type AppServices } from "./context";
import { findSubscription, INVALID_LINK_MESSAGE } from "./domain/newsletter/newsletter-service";
import { parseForm, readForm } from "./forms";
import { forgotPasswordSchema } from "~/schemas/account";

/*
 * What the routes behind a mailed link share: reading the link's token, and the pages that mail
 * one. A GET only reads (mail scanners follow links, ADR 0007); the page's button posts the token.
 */

/** The token in the link's address ("" when it has none: the services refuse that like any other). */
export function linkToken(request: Request): string {
  return new URL(request.url).searchParams.get("token") ?? "";
}

/**
 * The token the link page's button posted. With `oneClick`, a post without one falls back to the
 * token in the address: RFC 8058 one-click unsubscribe posts "List-Unsubscribe=One-Click" to the URL
 * from the mail, token and all.
 */
export async function postedLinkToken(request: Request, { oneClick }: { oneClick: boolean }): Promise<string> {
  const form = await readForm(request).catch(() => new FormData());
  const posted = form.get("token") ?? (oneClick ? new URL(request.url).searchParams.get("token") : null);
  return String(posted ?? "");
}

/** The subscription a newsletter link names, with its token; any other token is the one 404 they all answer. */
export async function linkedSubscription(request: Request, services: AppServices) {
  const token = linkToken(request);
  const subscription = await findSubscription(services, token);
  if (!subscription) throw data(INVALID_LINK_MESSAGE, { status: 404 });
  return { token, subscription };
}

type MailLinkAsk = (services: AppServices, email: string, ip: string) => Promise<{ ok: true; message: string } | { ok: false; status: 429; message: string }>;

/**
 * The action of a page that mails a link to the address it is given (/forgot-password and
 * /signin/email-link, ADR 0042): both take the forgot-password form; `ask` sends the one link.
 */
export async function mailLinkAction(request: Request, context: Readonly<RouterContextProvider>, ask: MailLinkAsk) {
  const parsed = await parseForm(request, forgotPasswordSchema);
  if (!parsed.ok) return data({ errors: parsed.errors, message: null }, { status: 400 });
  const result = await ask(context.get(servicesContext), parsed.values.email, context.get(requestContext).clientIp);
  if (!result.ok) return data({ errors: { form: result.message }, message: null }, { status: result.status });
  return { errors: {}, message: result.message };
}
