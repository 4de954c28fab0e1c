import { Form } from "react-router";
import { Search } from "~/components/ui/icons/search";
import { Button } from "~/components/ui/button";
import { Checkbox, FieldError, Input, Label } from "~/components/ui/form-controls";
import { QUERY_MAX_LENGTH, SEARCH_KINDS, SEARCH_SORTS } from "~/lib/search";
import { VIRTUES } from "~/lib/virtues";

export interface SearchFormFilters {
  kind: string | null;
  section: string | null;
  virtue: string | null;
  author: string | null;
  sort: string;
  bookmarks: boolean;
}

const selectClass = "h-10 rounded-md border border-stone-300 bg-white px-3 text-sm";

/**
 * /search's own form: the words and the filters, sent as a GET so a search is an address to keep or
 * share. Works without JavaScript; with it, React Router fetches the results in place.
 */
export function SearchForm({ query, filters, error, signedIn }: { query: string; filters: SearchFormFilters; error: string | null; signedIn: boolean }) {
  return (
    <Form method="get" action="/search" role="search" aria-label="Site search" className="rounded-lg border border-line bg-white p-4">
      <div className="flex flex-col gap-2">
        <Label htmlFor="search-q">Search for</Label>
        <div className="flex gap-2">
          <Input
            id="search-q"
            name="q"
            type="search"
            defaultValue={query}
            maxLength={QUERY_MAX_LENGTH}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? "search-q-error search-help" : "search-help"}
            data-search-field=""
          />
          <Button type="submit" variant="monk">
            <Search aria-hidden="true" />
            Search
          </Button>
        </div>
        <FieldError id="search-q-error">{error}</FieldError>
        <p id="search-help" className="text-xs text-muted">
          &ldquo;quotes&rdquo; for a phrase, medit* for words beginning so, -word to leave a word out.
        </p>
      </div>
      <div className="mt-4 grid gap-3 sm:grid-cols-2 lg:grid-cols-5">
        <div className="flex flex-col gap-1">
          <Label htmlFor="search-kind">Kind</Label>
          <select id="search-kind" name="kind" defaultValue={filters.kind ?? ""} className={selectClass}>
            <option value="">All kinds</option>
            {SEARCH_KINDS.map((k) => (
              <option key={k.id} value={k.id}>
                {k.label}
              </option>
            ))}
          </select>
        </div>
        <div className="flex flex-col gap-1">
          <Label htmlFor="search-section">Section</Label>
          <select id="search-section" name="section" defaultValue={filters.section ?? ""} className={selectClass}>
            <option value="">All sections</option>
            <option value="monastery">Monastery</option>
            <option value="battlefield">Battlefield</option>
          </select>
        </div>
        <div className="flex flex-col gap-1">
          <Label htmlFor="search-virtue">Virtue</Label>
          <select id="search-virtue" name="virtue" defaultValue={filters.virtue ?? ""} className={selectClass}>
            <option value="">Any virtue</option>
            {VIRTUES.map((v) => (
              <option key={v.id} value={v.id}>
                {v.label}
              </option>
            ))}
          </select>
        </div>
        <div className="flex flex-col gap-1">
          <Label htmlFor="search-author">Author&rsquo;s handle</Label>
          <Input id="search-author" name="author" defaultValue={filters.author ?? ""} maxLength={80} className="h-10 text-sm" />
        </div>
        <div className="flex flex-col gap-1">
          <Label htmlFor="search-sort">Sort by</Label>
          <select id="search-sort" name="sort" defaultValue={filters.sort} className={selectClass}>
            {SEARCH_SORTS.map((s) => (
              <option key={s.id} value={s.id}>
                {s.label}
              </option>
            ))}
          </select>
        </div>
      </div>
      {signedIn ? (
        <div className="mt-3 flex items-center gap-2">
          <Checkbox id="search-bookmarks" name="in" value="bookmarks" defaultChecked={filters.bookmarks} />
          <Label htmlFor="search-bookmarks" className="font-normal">
            Only my bookmarks
          </Label>
        </div>
      ) : null}
    </Form>
  );
}
