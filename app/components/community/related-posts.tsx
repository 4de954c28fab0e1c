import { Link } from "~/components/ui/link";

/**
 * A post page's related posts (issue 30). Rendered to HTML on the server and kept by the browser as
 * it came (related-posts.server.tsx, like reply cards, ADR 0032): its links are the site's
 * router-free <Link>, which the document's one click handler navigates (ADR 0035).
 */
export function RelatedPostsMarkup({ heading, posts }: { heading: string; posts: ReadonlyArray<{ title: string; url: string }> }) {
  return (
    <section aria-labelledby="related-posts" className="mt-12 border-t border-line pt-6">
      <h2 id="related-posts" className="mb-3 text-lg font-semibold">
        {heading}
      </h2>
      <ul className="flex flex-col gap-2">
        {posts.map((p) => (
          <li key={p.url}>
            <Link to={p.url} className="text-monk-strong underline-offset-2 hover:underline">
              {p.title}
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
