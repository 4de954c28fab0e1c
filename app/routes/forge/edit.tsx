import { data, redirect } from "react-router";
import { ParentLink } from "~/components/ui/link";
import type { Route } from "./+types/edit";
import { Card } from "~/components/ui/card";
import { servicesContext } from "~/.server/context";
import { creationForEdit, editCreation } from "~/.server/domain/forge/creation-service";
import { requireViewer } from "~/.server/session";
import { parseCreationForm } from "~/.server/upload-forms";
import { CreationForm } from "~/features/forge/creation-form";
import { parseId } from "~/lib/params";
import { editCreationSchema } from "~/schemas/forge";
import { UPLOAD_BODY_LIMIT } from "~/schemas/fields";

/** The form's schema, fetched after hydration (ADR 0029); the action imports it directly. */
const loadSchema = () => import("~/schemas/forge").then((m) => m.editCreationSchema);

/** This route takes uploads: server/http.ts lets its posts be larger than the global 1 MB. */
export const handle = { maxBodyBytes: UPLOAD_BODY_LIMIT };

export const meta: Route.MetaFunction = () => [{ title: "Edit Your Creation · The Forge" }, { name: "robots", content: "noindex" }];

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const viewer = requireViewer(context, request);
  const id = parseId(params.creationId);
  if (!id) throw data("Not found", { status: 404 });
  const own = await creationForEdit(context.get(servicesContext), viewer, id);
  if (!own.ok) throw data(own.errors.form, { status: own.status });
  return { creation: own.value };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const viewer = requireViewer(context, request);
  const id = parseId(params.creationId);
  if (!id) throw data("Not found", { status: 404 });
  const parsed = await parseCreationForm(request, editCreationSchema);
  if (!parsed.ok) return data({ errors: parsed.errors }, { status: parsed.status });
  const result = await editCreation(context.get(servicesContext), viewer, id, parsed.values, {
    image: parsed.files.image?.bytes,
    audio: parsed.files.audio?.bytes,
  });
  if (!result.ok) return data({ errors: result.errors }, { status: result.status });
  return redirect(`/forge/${id}`);
}

export default function Edit({ loaderData, actionData }: Route.ComponentProps) {
  const { creation } = loaderData;
  return (
    <div className="mx-auto max-w-3xl px-4 py-12">
      <ParentLink to={`/forge/${creation.id}`} accent>
        Back to the creation
      </ParentLink>
      <h1 className="mt-2 mb-8 font-serif text-4xl font-bold">Edit Your Creation</h1>
      <Card>
        <CreationForm
          loadSchema={loadSchema}
          defaults={{
            title: creation.title,
            description: creation.description,
            type: creation.type,
            body: creation.body,
            linkUrl: creation.link_url ?? "",
            imageName: creation.image_display_name,
            audioName: creation.audio_name,
          }}
          serverErrors={actionData?.errors}
          submitLabel="Save Changes"
        />
      </Card>
    </div>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error-boundary";
