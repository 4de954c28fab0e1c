import { useId, useState } from "react";

/**
 * A page's JSON-LD for search engines (issue 30), made on the server (structured-data.ts). Like
 * member prose (ADR 0029) the document carries its text once: the hydration data leaves `html` out
 * and the browser keeps what the server rendered.
 */
export function StructuredData({ data }: { data: { html?: string } | null }) {
  const id = useId();
  const [fromDocument] = useState(() => (data?.html === undefined && typeof document !== "undefined" ? (document.getElementById(id)?.textContent ?? "") : ""));
  if (!data) return null;
  return <script id={id} type="application/ld+json" dangerouslySetInnerHTML={{ __html: data.html ?? fromDocument }} />;
}
