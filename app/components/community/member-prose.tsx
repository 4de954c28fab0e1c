import { useId, useState } from "react";
import { cn } from "~/lib/utils";

/**
 * Member text rendered to HTML when it was written. A document carries that HTML once, in the markup:
 * the server leaves it out of the hydration data (entry.server.tsx, ADR 0029), so while hydrating the
 * browser takes it from the element the server rendered (found by a useId, the same on both sides).
 * Client-side navigations bring it in the route data as usual.
 */
export function MemberProse({ html, className }: { html: string | undefined; className?: string }) {
  return <MarkupFromServer html={html} className={cn("prose-member", className)} />;
}

/**
 * Markup the server made (member prose, a cached reply card: ADR 0029, ADR 0032) in a div. When the
 * hydration data leaves it out (`html` undefined), the browser keeps what the document holds.
 */
export function MarkupFromServer({ html, className }: { html: string | undefined; className?: string }) {
  const id = useId();
  const [fromDocument] = useState(() => (html === undefined && typeof document !== "undefined" ? (document.getElementById(id)?.innerHTML ?? "") : ""));
  return <div id={id} className={className} dangerouslySetInnerHTML={{ __html: html ?? fromDocument }} />;
}
