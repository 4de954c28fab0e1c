import { redirect } from "react-router";
import type { Route } from "./+types/sign-out";
import { servicesContext } from "~/.server/context";
import { signOutMember } from "~/.server/domain/accounts/account-service";

// Signing out changes state, so it is a POST only; a GET just goes home.
export function loader() {
  return redirect("/");
}

export async function action({ request, context }: Route.ActionArgs) {
  const headers = await signOutMember(context.get(servicesContext), request.headers);
  const out = new Headers();
  for (const cookie of headers.getSetCookie()) out.append("Set-Cookie", cookie);
  // The browser forgets what it kept for the member: the drafts of their posts (issue 32, the only
  // thing this site keeps in its storage), so the next person at a shared computer finds none.
  out.set("Clear-Site-Data", '"storage"');
  return redirect("/", { headers: out });
}
