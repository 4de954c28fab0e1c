import { useEffect, useState, useSyncExternalStore } from "react";
import { Link } from "~/components/ui/link";

type Similar = ReadonlyArray<{ title: string; url: string }>;

const subscribeNever = () => () => {};
const isBrowser = () => true;
const isServer = () => false;

/** How long typing must pause before the list is asked for again. */
const PAUSE_MS = 400;

/**
 * "Similar questions already asked" (issue 30), inside the ask form: with JavaScript it follows the
 * title as it is typed (/council/similar); without, the action shows it once on submit. Once it
 * follows the title, or has shown its list, the form carries `similarSeen`, so the submit posts.
 */
export function SimilarQuestions({ initial, titleId }: { initial: Similar; titleId: string }) {
  // What the title found as it was typed; until then, what the action found on submit.
  const [fetched, setFetched] = useState<Similar | null>(null);
  const found = fetched ?? initial;
  // In the browser the list follows the title, so the member sees it before they submit: the action
  // need not stop them (false while the server renders, true once hydrated).
  const live = useSyncExternalStore(subscribeNever, isBrowser, isServer);
  useEffect(() => {
    const input = document.getElementById(titleId);
    if (!(input instanceof HTMLInputElement)) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let asking: AbortController | undefined;
    const look = () => {
      clearTimeout(timer);
      timer = setTimeout(async () => {
        const title = input.value.trim();
        asking?.abort();
        if (title.length < 8) return setFetched([]);
        asking = new AbortController();
        try {
          const res = await fetch(`/council/similar?title=${encodeURIComponent(title)}`, { signal: asking.signal });
          if (res.ok) setFetched(((await res.json()) as { questions: Similar }).questions);
        } catch {
          // Aborted by the next keystroke, or offline: the list stays as it was.
        }
      }, PAUSE_MS);
    };
    input.addEventListener("input", look);
    return () => {
      input.removeEventListener("input", look);
      clearTimeout(timer);
      asking?.abort();
    };
  }, [titleId]);
  return (
    <div aria-live="polite">
      {found.length > 0 ? (
        <section aria-labelledby="similar-questions" className="rounded-md border border-monk/30 bg-monk-soft p-4">
          <h2 id="similar-questions" className="text-sm font-semibold text-monk-strong">
            Similar questions already asked
          </h2>
          <ul className="mt-2 flex flex-col gap-1 text-sm">
            {found.map((q) => (
              <li key={q.url}>
                <Link to={q.url} className="text-monk-strong underline">
                  {q.title}
                </Link>
              </li>
            ))}
          </ul>
          <p className="mt-2 text-xs text-stone-700">If none of these answers yours, post it.</p>
        </section>
      ) : null}
      {live || found.length > 0 ? <input type="hidden" name="similarSeen" value="1" /> : null}
    </div>
  );
}
