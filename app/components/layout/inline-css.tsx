import { createContext, useContext, useState } from "react";

const InlineCssContext = createContext<string | null>(null);

/** Carries the site's stylesheet text from the server entry to the document head (ADR 0029). */
export const InlineCssProvider = InlineCssContext.Provider;

const STYLE_ID = "site-css";

/**
 * The stylesheet, inlined in a <style> so the first paint waits for no request: Lighthouse's mobile
 * run (slow 4G) spent most of its LCP on the render-blocking <link>. The server renders the text it
 * read from build/client; the browser keeps what the document already holds (the text is not sent
 * twice through the hydration data). In development, or if the file is missing, the <link> stays.
 */
export function SiteStylesheet({ href, nonce }: { href: string; nonce?: string }) {
  const fromServer = useContext(InlineCssContext);
  const [css] = useState(() => fromServer ?? (typeof document === "undefined" ? null : (document.getElementById(STYLE_ID)?.textContent ?? null)));
  if (css === null) return <link rel="stylesheet" href={href} />;
  return <style id={STYLE_ID} nonce={nonce} dangerouslySetInnerHTML={{ __html: css }} />;
}
