import { data, redirect } from "react-router";
import { pendingPostRedirect } from "~/.server/flash";
import { Link, ParentLink } from "~/components/ui/link";
import type { Route } from "./+types/share";
import { Card } from "~/components/ui/card";
import { servicesContext } from "~/.server/context";
import { creationsLeftToday, shareCreation } from "~/.server/domain/forge/creation-service";
import { requireViewer } from "~/.server/session";
import { formKey } from "~/.server/forms";
import { parseCreationForm } from "~/.server/upload-forms";
import { CreationForm } from "~/features/forge/creation-form";
import { creationSchema } from "~/schemas/forge";
import { UPLOAD_BODY_LIMIT } from "~/schemas/fields";
import { INITIATE_DAILY_POSTS, INITIATE_DAILY_POSTS_MESSAGE } from "~/lib/privileges";
import { plural } from "~/lib/utils";

/** The form's schema, fetched after hydration (ADR 0029); the action imports it directly. */
const loadSchema = () => import("~/schemas/forge").then((m) => m.creationSchema);

/** This route takes uploads: server/http.ts lets its posts be larger than the global 1 MB. */
export const handle = { maxBodyBytes: UPLOAD_BODY_LIMIT };

export const meta: Route.MetaFunction = () => [{ title: "Share Your Creation · The Forge" }, { name: "robots", content: "noindex" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = requireViewer(context, request);
  // Said before the form, not after an upload (issue 26). The page reads no cache tag, so it is
  // never kept (ADR 0040): the figure is the database's at each render.
  const left = await creationsLeftToday(context.get(servicesContext), viewer);
  // Worded here, so the page's script does not carry the sentences of the limit (the form is heavy).
  const note =
    left === null
      ? null
      : left === 0
        ? `You have shared all you can today. ${INITIATE_DAILY_POSTS_MESSAGE}`
        : `You can share ${plural(left, "more creation", "more creations")} today. Initiates may start ${INITIATE_DAILY_POSTS} new discussions, questions or creations a day, counted together.`;
  return { submissionKey: formKey(), left, note };
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
  if (result.value.pending) return pendingPostRedirect("/forge", context.get(servicesContext).env.BASE_URL.startsWith("https://"));
  return redirect(`/forge/${result.value.id}`);
}

export default function Share({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <div className="mx-auto max-w-3xl px-4 py-12">
      <ParentLink to="/forge" accent>
        The Forge
      </ParentLink>
      <h1 className="mt-2 mb-2 font-serif text-4xl font-bold">Share Your Creation</h1>
      <p className="mb-8 text-stone-700">Writing, visual art, music or a project: show the community what you made.</p>
      {loaderData.left === 0 ? (
        // Nothing to upload today: the form would only be refused, so it is not shown.
        <Card className="p-6">
          <p data-slot="posts-left" className="text-stone-700">
            {loaderData.note}
          </p>
          <p className="mt-4">
            <Link to="/forge" className="font-semibold text-monk-strong underline">
              Back to the Forge
            </Link>
          </p>
        </Card>
      ) : (
        <>
          {loaderData.note !== null ? (
            <p data-slot="posts-left" className="mb-6 rounded-md bg-monk-soft p-3 text-sm text-ink">
              {loaderData.note}
            </p>
          ) : null}
          <Card>
            <CreationForm
              loadSchema={loadSchema}
              submissionKey={loaderData.submissionKey}
              serverErrors={actionData?.errors}
              submitLabel="Share Creation"
              keep={{ place: "creation:new", label: "Creation for the Forge" }}
            />
          </Card>
        </>
      )}
    </div>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error-boundary";
