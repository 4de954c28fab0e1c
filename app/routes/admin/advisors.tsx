import { ShieldCheck } from "~/components/ui/icons/shield-check";
import { data, Form, redirect } from "react-router";
import type { Route } from "./+types/advisors";
import { IntentButton } from "~/components/community/post-actions";
import { useValidatedForm } from "~/components/community/use-validated-form";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { FieldError, TextField } from "~/components/ui/form-controls";
import { servicesContext, type Viewer } from "~/.server/context";
import { advisorList } from "~/.server/domain/council/council-read-model";
import { grantAdvisor, revokeAdvisor } from "~/.server/domain/council/council-service";
import { parseForm, readForm } from "~/.server/forms";
import { requireViewer } from "~/.server/session";
import { advisorSchema } from "~/schemas/council";
import { PATH_NAME, PATHS } from "~/lib/paths";

export const meta: Route.MetaFunction = () => [{ title: "Advisors · Admin" }, { name: "robots", content: "noindex" }];

function requireAdmin(viewer: Viewer) {
  if (viewer.role !== "admin") throw data("Only admins can manage advisors.", { status: 403 });
}

export async function loader({ request, context }: Route.LoaderArgs) {
  requireAdmin(requireViewer(context, request));
  return { advisors: await advisorList(context.get(servicesContext).db) };
}

export async function action({ request, context }: Route.ActionArgs) {
  requireAdmin(requireViewer(context, request));
  const { db } = context.get(servicesContext);
  const form = await readForm(request, { clone: true });
  if (form.get("intent") === "revoke") {
    await revokeAdvisor(db, String(form.get("email") ?? ""));
    return redirect("/admin/advisors");
  }
  const parsed = await parseForm(request, advisorSchema);
  if (!parsed.ok) return data({ errors: parsed.errors }, { status: 400 });
  if (!(await grantAdvisor(db, parsed.values.email, parsed.values.path, parsed.values.specialty))) {
    return data({ errors: { email: "No member has this email address." } }, { status: 400 });
  }
  return redirect("/admin/advisors");
}

export default function Advisors({ loaderData, actionData }: Route.ComponentProps) {
  const { errors, onSubmit, onChange } = useValidatedForm(() => import("~/schemas/council").then((m) => m.advisorSchema), [], actionData?.errors);
  return (
    <div className="mx-auto max-w-3xl px-4 py-12">
      <h1 className="mb-8 font-serif text-4xl font-bold">Advisors</h1>
      <Card>
        <CardHeader>
          <CardTitle>Verify an advisor</CardTitle>
          <CardDescription>Their answers in the Council carry the "Verified advisor" mark with their path and specialty.</CardDescription>
        </CardHeader>
        <CardContent>
          <Form method="post" noValidate onSubmit={onSubmit} onChange={onChange} className="flex flex-col gap-4">
            <input type="hidden" name="intent" value="grant" />
            <TextField name="email" label="Member's email" type="email" error={errors.email} />
            <fieldset className="flex flex-col gap-2">
              <legend className="text-sm font-medium">Path</legend>
              <div className="flex gap-4">
                {PATHS.map((p) => (
                  <label key={p} className="flex items-center gap-2 text-sm">
                    <input type="radio" name="path" value={p} defaultChecked={p === "monk"} className="accent-monk" />
                    {PATH_NAME[p]}
                  </label>
                ))}
              </div>
              <FieldError id="path-error">{errors.path}</FieldError>
            </fieldset>
            <TextField name="specialty" label="Specialty" error={errors.specialty} maxLength={80} />
            <div>
              <Button type="submit" variant="monk">
                Grant advisor role
              </Button>
            </div>
          </Form>
        </CardContent>
      </Card>
      <h2 className="mt-10 mb-4 text-2xl font-bold">Current advisors</h2>
      {loaderData.advisors.length === 0 ? (
        <p className="text-muted">No advisors yet.</p>
      ) : (
        <ul className="flex flex-col gap-3">
          {loaderData.advisors.map((a) => (
            <li key={a.email}>
              <Card className="flex flex-wrap items-center justify-between gap-3 p-4">
                <div>
                  <p className="flex items-center gap-2 font-semibold">
                    <ShieldCheck aria-hidden="true" className={a.path === "monk" ? "size-4 text-monk" : "size-4 text-warrior"} />
                    {a.name}
                  </p>
                  <p className="text-sm text-muted">
                    {a.email} · {PATH_NAME[a.path]} · {a.specialty}
                  </p>
                </div>
                <IntentButton intent="revoke" fields={{ email: a.email }} label="Revoke" variant="outline" />
              </Card>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error-boundary";
