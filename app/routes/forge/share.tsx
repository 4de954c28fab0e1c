import { data, redirect } from "react-router";
import { Link } from "~/components/ui/link";
import type { Route } from "./+types/share";
import { Card } from "~/components/ui/card";
import { servicesContext } from "~/.server/context";
import { shareCreation } from "~/.server/domain/forge/creation-service";
import { requireViewer } from "~/.server/session";
import { parseCreationForm } from "~/.server/upload-forms";
import { CreationForm } from "~/features/forge/creation-form";
import { creationSchema } from "~/schemas/forge";
import { UPLOAD_BODY_LIMIT } from "~/schemas/fields";

/** The form's schema, fetched after hydration (ADR 0029); the action imports it directly. */
const loadSchema = () => import("~/schemas/forge").then((m) => m.creationSchema);

/** This route takes uploads: server/http.ts lets its posts be larger than the global 1 MB. */
export const handle = { maxBodyBytes: UPLOAD_BODY_LIMIT };

export const meta: Route.MetaFunction = () => [
  { title: "Share Your Creation · The Forge" },
  { name: "robots", content: "noindex" },
];

export function loader({ request, context }: Route.LoaderArgs) {
  requireViewer(context, request);
  return { submissionKey: crypto.randomUUID() };
}

export async function action({ request, context }: Route.ActionArgs) {
  const viewer = requireViewer(context, request);
  const parsed = await parseCreationForm(request, creationSchema);
  if (!parsed.ok) return data({ errors: parsed.errors }, { status: parsed.status });
  const result = await shareCreation(context.get(servicesContext), viewer, parsed.values, {
    image: parsed.files.image?.bytes,
    audio: parsed.files.audio?.bytes,
  });
  if (!result.ok) return data({ errors: result.errors }, { status: result.status });
  return redirect(`/forge/${result.value.id}`);
}

export default function Share({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <div className="mx-auto max-w-3xl px-4 py-12">
      <p className="text-sm">
        <Link to="/forge" className="font-semibold text-monk-strong underline">
          The Forge
        </Link>
      </p>
      <h1 className="mt-2 mb-2 font-serif text-4xl font-bold">Share Your Creation</h1>
      <p className="mb-8 text-stone-700">Writing, visual art, music or a project: show the community what you made.</p>
      <Card>
        <CreationForm loadSchema={loadSchema} submissionKey={loaderData.submissionKey} serverErrors={actionData?.errors} submitLabel="Share Creation" />
      </Card>
    </div>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error-boundary";
