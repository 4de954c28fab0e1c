import { Plus } from "~/components/ui/icons/plus";
import type { Route } from "./+types/forge";
import { PageHeader, SectionHeading } from "~/components/community/page-header";
import { ButtonLink } from "~/components/ui/button";
import { useViewer } from "~/components/layout/use-viewer";
import { servicesContext } from "~/.server/context";
import { creationFeed, listCategories } from "~/.server/domain/forge/forge-read-model";
import { decodeActivityCursor, pageRequest } from "~/.server/pagination";
import { Pager } from "~/components/community/pager";
import { data } from "react-router";
import { CategoryTile } from "~/features/forge/category-tile";
import { CreationCard } from "~/features/forge/creation-card";
import type { CreationType } from "~/lib/domain-values";
import { CREATION_LABELS } from "~/features/forge/creation-types";

export const meta: Route.MetaFunction = () => [
  { title: "The Forge · Inner Peace. Outer Strength." },
  { name: "description", content: "Writing, visual art, music and projects shaped by members on both paths." },
];

function isType(value: string | null): value is CreationType {
  return value !== null && Object.hasOwn(CREATION_LABELS, value);
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const { db } = context.get(servicesContext);
  const params = new URL(request.url).searchParams;
  const requested = params.get("type");
  // An unknown category shows everything rather than an error: it is only a filter.
  const type = isType(requested) ? requested : undefined;
  // A page link that is not one (a cursor edited by hand) is refused, never guessed at.
  const pageAsked = pageRequest(params, decodeActivityCursor);
  if (!pageAsked.ok) throw data(pageAsked.errors.form, { status: pageAsked.status });
  const [categories, feed] = await Promise.all([listCategories(db), creationFeed(db, type, pageAsked.value)]);
  // Page links keep the filter.
  const href = (cursor: string | null) => (cursor ? `/forge?${[type ? `type=${type}` : null, cursor].filter(Boolean).join("&")}#creations` : null);
  return { categories, creations: feed.creations, newer: href(feed.newer), older: href(feed.older), type: type ?? null };
}

export default function Forge({ loaderData }: Route.ComponentProps) {
  const { categories, creations, newer, older, type } = loaderData;
  const member = useViewer() !== null;
  return (
    <>
      <PageHeader title="The Forge" intro="Where discipline becomes craft. Share what you make on the path: words, images, music and projects." tone="neutral">
        {/* A visitor is asked to join first, as the seed has it; a member goes straight to the form. */}
        <ButtonLink to={member ? "/forge/new" : "/join"} variant="monk">
          <Plus aria-hidden="true" />
          Share Your Creation
        </ButtonLink>
      </PageHeader>
      <section aria-labelledby="categories" className="mx-auto max-w-6xl px-4 pt-12">
        <SectionHeading id="categories">Categories</SectionHeading>
        <div className="grid grid-cols-2 gap-4 md:grid-cols-4">
          {categories.map((c) => (
            <CategoryTile key={c.id} category={c} active={c.id === type} />
          ))}
        </div>
      </section>
      <section aria-labelledby="creations" className="mx-auto max-w-6xl px-4 py-12">
        <SectionHeading id="creations">{type ? CREATION_LABELS[type] : "Recent Creations"}</SectionHeading>
        {creations.length === 0 ? (
          <p className="text-muted">No creations here yet.</p>
        ) : (
          // Each card keeps its own height: a text-only card beside an image card is not stretched
          // to the image's height, which left a block of white (issue 26 item 12).
          <div className="grid items-start gap-6 md:grid-cols-2 lg:grid-cols-3">
            {creations.map((c, i) => (
              // The first row is on screen as the page opens; the rest wait until scrolled to.
              <CreationCard key={c.id} creation={c} lazy={i >= 3} />
            ))}
          </div>
        )}
        <Pager
          label="Creation pages"
          links={{ first: null, previous: newer, next: older, last: null }}
          names={["", "Newer creations", "Older creations", ""]}
        />
      </section>
    </>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error-boundary";
