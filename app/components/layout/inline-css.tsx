import { createContext, useContext, useState } from "react";

/**
 * What the server entry tells the document head of the site's stylesheet (ADR 0029): that there is
 * one to inline, and its text, unless the entry writes the text into the page's bytes itself
 * (`spliced`: React would encode 43 KB again for every page it renders).
 */
export type InlineCss = { text: string; spliced: boolean } | null;

const InlineCssContext = createContext<InlineCss>(null);

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
  const [css] = useState(() =>
    fromServer
      ? fromServer.spliced
        ? ""
        : fromServer.text
      : typeof document === "undefined"
        ? null
        : (document.getElementById(STYLE_ID)?.textContent ?? null),
  );
  if (css === null) return <link rel="stylesheet" href={href} />;
  return <style id={STYLE_ID} nonce={nonce} dangerouslySetInnerHTML={{ __html: css }} />;
}
