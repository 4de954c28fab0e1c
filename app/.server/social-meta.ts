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
export function withSocialMeta(html: Buffer, siteName: string, defaultImage: string): Buffer {
  const headEnd = html.indexOf("</head>");
  if (headEnd === -1) return html;
  // Decoded apart from the inline stylesheet, most of the head's bytes and none of its tags: the
  // page stays bytes, as React wrote it (decoding and encoding 80 KB cost more than the tags).
  const styleStart = html.lastIndexOf("<style", headEnd);
  const styleEnd = styleStart === -1 ? -1 : html.indexOf("</style>", styleStart);
  const head =
    styleEnd === -1 || styleEnd > headEnd ? html.toString("utf8", 0, headEnd) : html.toString("utf8", 0, styleStart) + html.toString("utf8", styleEnd, headEnd);
  const markup = socialTags(head, siteName, defaultImage);
  return markup === undefined ? html : Buffer.concat([html.subarray(0, headEnd), Buffer.from(markup), html.subarray(headEnd)]);
}

/** The tags for a head's title, description, canonical link and picture; none for a head without a title. */
function socialTags(head: string, siteName: string, defaultImage: string): string | undefined {
  const title = /<title>([^<]*)<\/title>/.exec(head)?.[1];
  if (title === undefined) return undefined;
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
  return tags.map(([attribute, key, value]) => `<meta ${attribute}="${key}" content="${value}" data-social=""/>`).join("");
}
