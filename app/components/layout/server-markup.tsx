import { useState, type ReactNode } from "react";

/**
 * A part of the layout that never changes in the browser (the footer's links), kept as the server
 * rendered it. Callers pass `import.meta.env.SSR ? <Part /> : null`, so the part's code is left out of
 * the scripts every page loads; while hydrating, the browser takes the markup from the document, as
 * MarkupFromServer does for member prose (ADR 0029). Links in it are plain <a> elements, which the
 * document's one click handler navigates (ADR 0035). The element is `display: contents`, so the part
 * lays out as if it stood in its parent directly.
 */
export function ServerMarkup({ id, children }: { id: string; children: ReactNode }) {
  const [html] = useState(() => (import.meta.env.SSR ? "" : (document.getElementById(id)?.innerHTML ?? "")));
  if (import.meta.env.SSR)
    return (
      <div id={id} className="contents">
        {children}
      </div>
    );
  return <div id={id} className="contents" dangerouslySetInnerHTML={{ __html: html }} />;
}
