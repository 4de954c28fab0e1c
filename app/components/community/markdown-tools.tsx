import { useEffect, useState, useSyncExternalStore } from "react";
import { cn } from "~/lib/utils";

const noSubscription = () => () => {};

type Preview = { state: "idle" } | { state: "loading" } | { state: "shown"; html: string } | { state: "failed"; error: string };

/** Bold, italic and a link around the selection, as Ctrl (⌘ on a Mac) with B, I or K. */
const WRAPS: Record<string, (selected: string) => { text: string; select: [number, number] }> = {
  b: (s) => ({ text: `**${s || "bold"}**`, select: [2, 2 + (s || "bold").length] }),
  i: (s) => ({ text: `*${s || "italic"}*`, select: [1, 1 + (s || "italic").length] }),
  k: (s) => {
    const words = s || "link text";
    return { text: `[${words}](https://)`, select: [words.length + 3, words.length + 11] };
  },
};

function wrapSelection(area: HTMLTextAreaElement, key: string) {
  const wrap = WRAPS[key];
  if (!wrap) return false;
  const { selectionStart: start, selectionEnd: end } = area;
  const { text, select } = wrap(area.value.slice(start, end));
  area.setRangeText(text, start, end, "end");
  area.setSelectionRange(start + select[0], start + select[1]);
  // What the form's checks and the draft see as typed.
  area.dispatchEvent(new Event("input", { bubbles: true }));
  return true;
}

/**
 * A Markdown box's Write / Preview tabs and shortcuts (issue 32), loaded after the page is
 * interactive and shown only once scripts run (the server renders nothing of it, so a page without
 * JavaScript has no tab that does nothing). The box stays the form's own field: Preview hides it and
 * shows what the server's renderer makes of its text (POST /markdown/preview); Write shows it again.
 */
export function MarkdownTools({ fieldId }: { fieldId: string }) {
  // True once scripts run (false on the server and while hydrating), with no effect setting state.
  const ready = useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
  const [tab, setTab] = useState<"write" | "preview">("write");
  const [preview, setPreview] = useState<Preview>({ state: "idle" });
  const box = () => document.getElementById(fieldId) as HTMLTextAreaElement | null;

  useEffect(() => {
    const area = box();
    if (!area) return;
    const onKey = (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey) return;
      if (wrapSelection(area, event.key.toLowerCase())) event.preventDefault();
    };
    area.addEventListener("keydown", onKey);
    return () => area.removeEventListener("keydown", onKey);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the box is found by its id, which is all this depends on
  }, [fieldId]);

  useEffect(() => {
    const area = box();
    if (area) area.hidden = tab === "preview";
    // eslint-disable-next-line react-hooks/exhaustive-deps -- as above
  }, [tab, fieldId]);

  if (!ready) return null;

  async function showPreview() {
    setTab("preview");
    setPreview({ state: "loading" });
    try {
      const response = await fetch("/markdown/preview", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ body: box()?.value ?? "" }),
      });
      const answer = (await response.json()) as { html?: string; error?: string };
      setPreview(
        answer.html !== undefined ? { state: "shown", html: answer.html } : { state: "failed", error: answer.error ?? "The preview could not be made." },
      );
    } catch {
      setPreview({ state: "failed", error: "The preview could not be made. Check your connection and try again." });
    }
  }

  const tabClass = (active: boolean) =>
    cn(
      "rounded-t-md border-b-2 px-3 py-1 text-sm font-semibold",
      active ? "border-monk text-monk-strong" : "border-transparent text-muted hover:text-stone-900",
    );
  return (
    <>
      <div role="tablist" aria-label="Write or preview" className="flex gap-1 border-b border-line">
        <button
          type="button"
          role="tab"
          id={`${fieldId}-write`}
          aria-selected={tab === "write"}
          aria-controls={fieldId}
          className={tabClass(tab === "write")}
          onClick={() => {
            setTab("write");
            requestAnimationFrame(() => box()?.focus());
          }}
        >
          Write
        </button>
        <button
          type="button"
          role="tab"
          id={`${fieldId}-preview-tab`}
          aria-selected={tab === "preview"}
          aria-controls={`${fieldId}-preview`}
          className={tabClass(tab === "preview")}
          onClick={showPreview}
        >
          Preview
        </button>
      </div>
      <div
        id={`${fieldId}-preview`}
        role="tabpanel"
        aria-labelledby={`${fieldId}-preview-tab`}
        aria-busy={preview.state === "loading"}
        hidden={tab !== "preview"}
        tabIndex={0}
        className="min-h-24 rounded-md border border-line bg-white p-3"
      >
        {preview.state === "loading" ? (
          <p className="text-sm text-muted">Rendering the preview…</p>
        ) : preview.state === "failed" ? (
          <p role="alert" className="text-sm font-medium text-warrior-strong">
            {preview.error}
          </p>
        ) : preview.state === "shown" && preview.html !== "" ? (
          // The server's renderer, as every post is rendered: escaped text, its own safe markup.
          <div className="prose-member" dangerouslySetInnerHTML={{ __html: preview.html }} />
        ) : (
          <p className="text-sm text-muted">Nothing to preview yet.</p>
        )}
      </div>
    </>
  );
}
