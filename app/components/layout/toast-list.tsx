import { useCallback, useEffect, useRef, useState } from "react";
import { X } from "~/components/ui/icons/x";
import type { ToastMessage } from "./toaster";

const SHOW_MS = 6000;

/**
 * The one toast the site shows: the root loader's flash or rank-up message (issue 13, ADR 0029). A
 * library (sonner, 10 KB gzip on every page) was more than one success message needs. Toasts are added
 * after hydration, in a fixed corner, so they never shift the layout; each id is shown once; hovering or
 * focusing a toast holds it until the pointer or focus leaves. The layout renders it through Toaster
 * (toaster.tsx), which loads it after hydration.
 */
export function ToastList({ toast }: { toast: ToastMessage | null }) {
  const [shown, setShown] = useState<ToastMessage[]>([]);
  const seen = useRef(new Set<string>());

  useEffect(() => {
    if (!toast || seen.current.has(toast.id)) return;
    seen.current.add(toast.id);
    setShown((list) => [...list, toast]);
  }, [toast]);

  const dismiss = useCallback((id: string) => setShown((list) => list.filter((t) => t.id !== id)), []);

  return (
    <section aria-label="Notifications" aria-live="polite" aria-relevant="additions text" tabIndex={-1}>
      {shown.length > 0 && (
        <ol className="fixed bottom-4 right-4 z-50 flex w-[calc(100%-2rem)] max-w-sm flex-col gap-2">
          {shown.map((t) => (
            <ToastItem key={t.id} toast={t} onDismiss={dismiss} />
          ))}
        </ol>
      )}
    </section>
  );
}

function ToastItem({ toast, onDismiss }: { toast: ToastMessage; onDismiss: (id: string) => void }) {
  const [held, setHeld] = useState(false);
  useEffect(() => {
    if (held) return;
    const timer = setTimeout(() => onDismiss(toast.id), SHOW_MS);
    return () => clearTimeout(timer);
  }, [held, onDismiss, toast.id]);
  return (
    <li
      className="relative rounded-lg border border-green-300 bg-green-50 p-4 pr-10 text-sm text-green-900 shadow-lg"
      onMouseEnter={() => setHeld(true)}
      onMouseLeave={() => setHeld(false)}
      onFocus={() => setHeld(true)}
      onBlur={() => setHeld(false)}
    >
      <p className="font-semibold">{toast.title}</p>
      {toast.description && <p className="mt-1">{toast.description}</p>}
      <button
        type="button"
        aria-label="Close toast"
        onClick={() => onDismiss(toast.id)}
        className="absolute right-2 top-2 rounded p-1 text-green-900 hover:bg-green-100"
      >
        <X aria-hidden="true" className="size-4" />
      </button>
    </li>
  );
}
