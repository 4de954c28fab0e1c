import { data } from "react-router";
import type { Route } from "./+types/settings-export";
import { servicesContext } from "~/.server/context";
import { exportMemberData } from "~/.server/domain/accounts/data-export";
import { requireViewer } from "~/.server/session";

// A GET is fine here: it changes nothing. It needs the session, and only ever exports the
// session's own member: there is no id in the address to try another one with.
export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = requireViewer(context, request);
  const now = new Date();
  const exported = await exportMemberData(context.get(servicesContext).db, viewer.id, now);
  if (!exported) throw data("Not found", { status: 404 });
  return new Response(JSON.stringify(exported, null, 2), {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="inner-peace-outer-strength-${viewer.handle}-${now.toISOString().slice(0, 10)}.json"`,
      "Cache-Control": "no-store",
    },
  });
}
