import { createContext, useContext, useState, type ReactElement, type ReactNode } from "react";

/**
 * The server entry's markup of a part by its id, for the parts that are the same on every page for
 * everyone (the brand, the search fields, the footer's links: app/.server/kept-markup.ts names
 * them), made once per process; undefined for any other part. Absent in the browser.
 */
type KeptMarkup = (id: string, part: ReactElement) => string | undefined;
// Pure, and its Provider read by the server entry alone: the browser's build leaves it out.
export const KeptMarkupContext = /* @__PURE__ */ createContext<KeptMarkup | null>(null);

/**
 * A part of the layout that never changes in the browser (the footer's links), kept as the server
 * rendered it. Callers pass `import.meta.env.SSR ? <Part /> : null`, so the part's code is left out of
 * the scripts every page loads; while hydrating, the browser takes the markup from the document, as
 * MarkupFromServer does for member prose (ADR 0029). Links in it are plain <a> elements, which the
 * document's one click handler navigates (ADR 0035). The element is `display: contents`, so the part
 * lays out as if it stood in its parent directly. A part the same on every page for everyone is
 * rendered once per process by the server, rather than once per page.
 */
export function ServerMarkup({ id, children }: { id: string; children: ReactNode }) {
  const [html] = useState(() => (import.meta.env.SSR ? "" : (document.getElementById(id)?.innerHTML ?? "")));
  if (import.meta.env.SSR) return <ServerPart id={id} part={children} />;
  return <div id={id} className="contents" dangerouslySetInnerHTML={{ __html: html }} />;
}

/** The server's side of ServerMarkup, apart so that the browser's build leaves it out. */
function ServerPart({ id, part }: { id: string; part: ReactNode }) {
  const kept = useContext(KeptMarkupContext);
  const html = kept && isElement(part) ? kept(id, part) : undefined;
  if (html !== undefined) return <div id={id} className="contents" dangerouslySetInnerHTML={{ __html: html }} />;
  return (
    <div id={id} className="contents">
      {part}
    </div>
  );
}

function isElement(node: ReactNode): node is ReactElement {
  return typeof node === "object" && node !== null && "type" in node && "props" in node;
}
