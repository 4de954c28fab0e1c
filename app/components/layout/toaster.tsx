import { hydrateLater } from "./hydrate-later";

export type ToastMessage = { id: string; title: string; description?: string };

/**
 * The toasts' region (toast-list.tsx). Toasts are only ever added after hydration, so the list's
 * script is not among what every page loads before it is interactive (ADR 0031): the server renders
 * the empty region, and the browser hydrates it when its chunk arrives.
 */
export const Toaster = hydrateLater<{ toast: ToastMessage | null }>(() => import("./toast-list").then((m) => m.ToastList));
