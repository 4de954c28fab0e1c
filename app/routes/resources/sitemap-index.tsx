import type { Route } from "./+types/sitemap-index";
import { servicesContext } from "~/.server/context";
import { sitemapParts } from "~/.server/domain/discovery/sitemap-read-model";
import { xmlResponse, xmlText } from "~/.server/xml";

/** `/sitemap.xml`: the index of the sitemap's parts (sitemaps.org protocol; issue 30). */
export async function loader({ context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const base = services.env.BASE_URL;
  const parts = await sitemapParts(services.db);
  return xmlResponse(
    '<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n' +
      parts.map((name) => `<sitemap><loc>${xmlText(`${base}/sitemap/${name}.xml`)}</loc></sitemap>\n`).join("") +
      "</sitemapindex>\n",
  );
}
