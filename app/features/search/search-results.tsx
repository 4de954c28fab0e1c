import { Link } from "~/components/ui/link";
import { Badge } from "~/components/ui/badge";
import { Pager } from "~/components/community/pager";
import { formatDate } from "~/lib/dates";
import type { MarkedPiece } from "~/lib/search";

interface Result {
  key: string;
  kindLabel: string;
  url: string;
  title: readonly MarkedPiece[];
  place: string | null;
  excerpt: readonly MarkedPiece[];
  author: { name: string; profile: string | null } | null;
  createdAt: string;
  hidden: boolean;
}

interface MemberResult {
  name: string;
  handle: string;
  profile: string;
  rank: string;
  bio: string | null;
}

export type SearchOutcomeView =
  | { status: "empty" }
  | { status: "no-author"; author: string }
  | { status: "sign-in" }
  | { status: "found"; results: Result[]; members: MemberResult[]; next: string | null; includesHidden: boolean }
  | null;

/** Text with the searched words in <mark>: pieces of plain text, never HTML from what a member wrote. */
function Marked({ pieces }: { pieces: readonly MarkedPiece[] }) {
  return (
    <>
      {pieces.map(([text, marked], i) =>
        marked ? (
          <mark key={i} className="rounded-sm bg-amber-100 px-0.5 text-ink">
            {text}
          </mark>
        ) : (
          text
        ),
      )}
    </>
  );
}

export function SearchResults({ query, outcome, next, first }: { query: string; outcome: SearchOutcomeView; next: string | null; first: string | null }) {
  if (outcome === null) return null;
  if (outcome.status === "empty") {
    return <p className="mt-8 text-stone-700">Type a word to search for: a symbol or a word to leave out finds nothing on its own.</p>;
  }
  if (outcome.status === "no-author") {
    return (
      <p role="status" className="mt-8 text-stone-700">
        No member has the handle &ldquo;{outcome.author}&rdquo;.
      </p>
    );
  }
  if (outcome.status === "sign-in") {
    return (
      <p role="status" className="mt-8 text-stone-700">
        <Link to="/signin?redirectTo=%2Fbookmarks" className="font-semibold text-monk-strong underline">
          Sign in
        </Link>{" "}
        to search your bookmarks.
      </p>
    );
  }
  const { results, members } = outcome;
  const nothing = results.length === 0 && members.length === 0;
  return (
    <section aria-labelledby="search-results" className="mt-8">
      <h2 id="search-results" className="font-serif text-2xl font-bold">
        Results for &ldquo;{query}&rdquo;
      </h2>
      {nothing ? (
        <p role="status" className="mt-4 text-stone-700">
          Nothing found. Try fewer words, another spelling, or a word&rsquo;s beginning with *.
        </p>
      ) : null}
      {members.length > 0 ? (
        <div className="mt-4">
          <h3 className="text-sm font-semibold uppercase tracking-wide text-muted">Members</h3>
          <ul className="mt-2 grid gap-2 sm:grid-cols-2">
            {members.map((m) => (
              <li key={m.handle} className="rounded-lg border border-line bg-white p-3">
                <Link to={m.profile} className="font-semibold text-monk-strong hover:underline">
                  {m.name}
                </Link>{" "}
                <span className="text-sm text-muted">@{m.handle}</span>
                <span className="ml-2 text-xs text-muted">{m.rank}</span>
                {m.bio ? <p className="mt-1 line-clamp-2 text-sm text-stone-700">{m.bio}</p> : null}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {results.length > 0 ? (
        <ol className="mt-4 flex flex-col gap-3">
          {results.map((r) => (
            <li key={r.key} className="rounded-lg border border-line bg-white p-4">
              <div className="flex flex-wrap items-center gap-2 text-xs text-muted">
                <Badge tone="neutral">{r.kindLabel}</Badge>
                {r.place ? <span>{r.place}</span> : null}
                {r.hidden ? <Badge tone="warrior">Hidden</Badge> : null}
              </div>
              <h3 className="mt-2 text-lg font-semibold">
                <Link to={r.url} className="hover:underline">
                  <Marked pieces={r.title} />
                </Link>
              </h3>
              {r.excerpt.length > 0 ? (
                <p className="mt-1 text-sm text-stone-700">
                  <Marked pieces={r.excerpt} />
                </p>
              ) : null}
              <p className="mt-2 text-xs text-muted">
                {r.author ? (
                  r.author.profile ? (
                    <Link to={r.author.profile} className="hover:underline">
                      {r.author.name}
                    </Link>
                  ) : (
                    r.author.name
                  )
                ) : null}
                {r.author ? " · " : null}
                <time dateTime={r.createdAt}>{formatDate(r.createdAt)}</time>
              </p>
            </li>
          ))}
        </ol>
      ) : null}
      <Pager label="Search result pages" links={{ first, previous: null, next, last: null }} names={["First page", "", "Next page", ""]} />
    </section>
  );
}
