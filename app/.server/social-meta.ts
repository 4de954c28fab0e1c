/**
 * Open Graph and Twitter card tags for every page (issue 30), written into the document's head by
 * the server from what the page's own head already says: its <title>, its description and its
 * canonical link (ADR 0046). Done on the rendered head, once per render, so no page's script carries
 * it and no route can forget it; a kept page keeps it. React 19 skips tags it did not render in the
 * head while hydrating, and the layout drops them after a client-side navigation (they would name
 * the document's first page).
 *
 * A page with a picture of its own says so with its own `og:image` (a discussion's, question's or
 * creation's preview, previews.ts); every other page shares the site's.
 */
export function withSocialMeta(html: string, siteName: string, defaultImage: string): string {
  const headEnd = html.indexOf("</head>");
  if (headEnd === -1) return html;
  const head = html.slice(0, headEnd);
  const title = /<title>([^<]*)<\/title>/.exec(head)?.[1];
  if (title === undefined) return html;
  const description = /<meta name="description" content="([^"]*)"/.exec(head)?.[1] ?? "";
  const url = /<link rel="canonical" href="([^"]*)"/.exec(head)?.[1];
  const ownImage = /<meta property="og:image" content="([^"]*)"/.exec(head)?.[1];
  // The title is text in the head: its quotes become an attribute's.
  const text = title.replaceAll('"', "&quot;");
  const image = ownImage ?? defaultImage;
  const tags = [
    ["property", "og:site_name", siteName],
    ["property", "og:type", ownImage ? "article" : "website"],
    ["property", "og:title", text],
    ...(description ? [["property", "og:description", description]] : []),
    ...(url ? [["property", "og:url", url]] : []),
    ...(ownImage ? [] : [["property", "og:image", image]]),
    ["name", "twitter:card", "summary_large_image"],
    ["name", "twitter:title", text],
    ...(description ? [["name", "twitter:description", description]] : []),
    ["name", "twitter:image", image],
  ];
  const markup = tags.map(([attribute, key, value]) => `<meta ${attribute}="${key}" content="${value}" data-social=""/>`).join("");
  return html.slice(0, headEnd) + markup + html.slice(headEnd);
}
