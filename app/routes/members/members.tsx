import { data, Form } from "react-router";
import type { Route } from "./+types/members";
import { Avatar } from "~/components/community/avatar";
import { RankBadge } from "~/components/community/badges";
import { PageHeader } from "~/components/community/page-header";
import { Pager } from "~/components/community/pager";
import { Button } from "~/components/ui/button";
import { Input, Label } from "~/components/ui/form-controls";
import { Link } from "~/components/ui/link";
import { servicesContext } from "~/.server/context";
import { memberDirectory, type DirectoryFilters } from "~/.server/domain/accounts/directory-read-model";
import { decodeDirectoryCursor, INVALID_PAGE_LINK } from "~/.server/pagination";
import { formatDate } from "~/lib/dates";
import { PATH_LABEL, PATHS } from "~/lib/paths";
import { RANKS } from "~/lib/ranks";
import { formatCount } from "~/lib/utils";

export const meta: Route.MetaFunction = () => [
  { title: "Members · Inner Peace. Outer Strength." },
  { name: "description", content: "The monks and warriors of the community: find a member by name, rank or path." },
];

/** Longest name search read; more is cut, as a name is never longer. */
const NAME_MAX = 80;

/**
 * /members (issue 30): the directory. Filters are not resources: an unknown rank, path or sort is
 * ignored; a page link that is no cursor is a 400.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams;
  const rank = RANKS.find((r) => r.id === params.get("rank"))?.id ?? null;
  const path = PATHS.find((p) => p === params.get("path")) ?? null;
  const filters: DirectoryFilters = {
    name: (params.get("name") ?? "").slice(0, NAME_MAX).trim(),
    rank,
    path,
    sort: params.get("sort") === "newest" ? "newest" : "xp",
  };
  const rawAfter = params.get("after");
  const after = rawAfter === null ? null : decodeDirectoryCursor(rawAfter);
  if (rawAfter !== null && !after) throw data(INVALID_PAGE_LINK, { status: 400 });
  const page = await memberDirectory(context.get(servicesContext).db, filters, after);
  const link = (cursor: string | null) => {
    const next = new URLSearchParams(params);
    next.delete("after");
    if (cursor) next.set("after", cursor);
    const query = next.toString();
    return `/members${query ? `?${query}` : ""}`;
  };
  return { filters, members: page.members, next: page.next ? link(page.next) : null, first: after ? link(null) : null };
}

const selectClass = "h-10 rounded-md border border-stone-300 bg-white px-3 text-sm";

export default function Members({ loaderData }: Route.ComponentProps) {
  const { filters, members, next, first } = loaderData;
  return (
    <>
      <PageHeader title="Members" intro="The monks and warriors walking the path together." />
      <div className="mx-auto max-w-6xl px-4 py-8">
        <Form
          method="get"
          role="search"
          aria-label="Find members"
          className="grid gap-3 rounded-lg border border-line bg-white p-4 sm:grid-cols-2 lg:grid-cols-5"
        >
          <div className="flex flex-col gap-1 lg:col-span-2">
            <Label htmlFor="members-name">Name or handle</Label>
            <Input id="members-name" name="name" type="search" defaultValue={filters.name} maxLength={NAME_MAX} />
          </div>
          <div className="flex flex-col gap-1">
            <Label htmlFor="members-rank">Rank</Label>
            <select id="members-rank" name="rank" defaultValue={filters.rank ?? ""} className={selectClass}>
              <option value="">All ranks</option>
              {RANKS.map((r) => (
                <option key={r.id} value={r.id}>
                  {r.label}
                </option>
              ))}
            </select>
          </div>
          <div className="flex flex-col gap-1">
            <Label htmlFor="members-path">Path</Label>
            <select id="members-path" name="path" defaultValue={filters.path ?? ""} aria-describedby="members-path-help" className={selectClass}>
              <option value="">Both paths</option>
              {PATHS.map((p) => (
                <option key={p} value={p}>
                  {PATH_LABEL[p]}
                </option>
              ))}
            </select>
          </div>
          <div className="flex flex-col gap-1">
            <Label htmlFor="members-sort">Sort by</Label>
            <select id="members-sort" name="sort" defaultValue={filters.sort} className={selectClass}>
              <option value="xp">Most XP</option>
              <option value="newest">Newest</option>
            </select>
          </div>
          <p id="members-path-help" className="text-xs text-muted sm:col-span-2 lg:col-span-4">
            A member&rsquo;s path follows the interests they chose: meditation and philosophy for the monk, fitness for the warrior.
          </p>
          <Button type="submit" variant="monk">
            Find Members
          </Button>
        </Form>

        <section aria-labelledby="members-list" className="mt-8">
          <h2 id="members-list" className="sr-only">
            Members found
          </h2>
          {members.length === 0 ? (
            <p role="status" className="text-stone-700">
              No member matches. Try another name, or fewer filters.
            </p>
          ) : (
            <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
              {members.map((m) => (
                <li key={m.handle} className="flex gap-3 rounded-lg border border-line bg-white p-4">
                  <Avatar member={m} />
                  <div className="min-w-0">
                    <Link to={m.profile} className="font-semibold text-monk-strong hover:underline">
                      {m.name}
                    </Link>
                    <p className="text-sm text-muted">@{m.handle}</p>
                    <div className="mt-1 flex flex-wrap items-center gap-2 text-xs text-stone-700">
                      <RankBadge rank={m.rank} />
                      <span>{formatCount(m.xp)} XP</span>
                      <span>
                        Joined <time dateTime={m.joinedAt}>{formatDate(m.joinedAt)}</time>
                      </span>
                    </div>
                    {m.bio ? <p className="mt-2 line-clamp-2 text-sm text-stone-700">{m.bio}</p> : null}
                  </div>
                </li>
              ))}
            </ul>
          )}
          <Pager label="Pages of members" links={{ first, previous: null, next, last: null }} names={["First page", "", "Next page", ""]} />
        </section>
      </div>
    </>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error-boundary";
