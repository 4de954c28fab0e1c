import type { Route } from "./+types/robots";
import { servicesContext } from "~/.server/context";

/**
 * `/robots.txt` (issue 30): crawlers may read every public page and are kept out of forms, one
 * member's pages and search results (endless, and nothing a search engine should index twice).
 */
const KEPT_OUT = [
  "/settings",
  "/dashboard",
  "/notifications",
  "/search",
  "/council/similar",
  "/bookmarks",
  "/reactions/",
  "/flags/",
  "/review",
  "/admin/",
  "/signin",
  "/join",
  "/forgot-password",
  "/reset-password",
  "/signout",
];

export function loader({ context }: Route.LoaderArgs) {
  const base = context.get(servicesContext).env.BASE_URL;
  const body = [
    "User-agent: *",
    ...KEPT_OUT.map((path) => `Disallow: ${path}`),
    "Disallow: /*/new",
    "Disallow: /*/edit",
    "",
    `Sitemap: ${base}/sitemap.xml`,
    "",
  ].join("\n");
  return new Response(body, { headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "public, max-age=3600" } });
}
