import { data } from "react-router";
import type { Route } from "./+types/sitemap";
import { servicesContext } from "~/.server/context";
import { sitemapPart } from "~/.server/domain/discovery/sitemap-read-model";
import { xmlResponse, xmlText } from "~/.server/xml";

/** `/sitemap/<part>.xml`: one part of the sitemap, at most 50,000 addresses (issue 30). */
export async function loader({ params, context }: Route.LoaderArgs) {
  const name = /^(.+)\.xml$/.exec(params.part)?.[1];
  const services = context.get(servicesContext);
  const entries = name ? await sitemapPart(services.db, name) : null;
  if (!entries) throw data("Not found", { status: 404 });
  const base = services.env.BASE_URL;
  return xmlResponse(
    '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n' +
      entries.map((e) => `<url><loc>${xmlText(base + e.path)}</loc>${e.lastmod ? `<lastmod>${e.lastmod}</lastmod>` : ""}</url>\n`).join("") +
      "</urlset>\n",
  );
}
