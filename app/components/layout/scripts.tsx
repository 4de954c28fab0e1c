import { createContext, useContext, type ComponentType } from "react";
import { Scripts as RouterScripts } from "react-router";

const ServerScriptsContext = createContext<ComponentType<{ nonce?: string }> | null>(null);

/** Carries the server's own rendering of the page's scripts from the server entry (ADR 0037). */
export const ServerScriptsProvider = ServerScriptsContext.Provider;

/**
 * The scripts that start the page. On the server, the server entry's component (ADR 0037:
 * app/.server/route-scripts.tsx) writes React Router's markup with the work that depends only on
 * the route done once; in the browser, React Router's own `<Scripts>` hydrates that markup as
 * it would its own.
 */
export function Scripts({ nonce }: { nonce?: string }) {
  const ServerScripts = useContext(ServerScriptsContext);
  // eslint-disable-next-line react-hooks/static-components -- one module-level component for the server's whole life, never made during a render
  return ServerScripts ? <ServerScripts nonce={nonce} /> : <RouterScripts nonce={nonce} />;
}
