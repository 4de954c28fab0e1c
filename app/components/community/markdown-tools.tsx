import { useEffect, useRef, useState, useSyncExternalStore } from "react";
import { cn } from "~/lib/utils";
import { DRAFT_SAVE_MS } from "~/lib/drafts";
import { POST_IMAGES_MAX } from "~/lib/post-images";
import { useRouteLoaderData } from "react-router";

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
export function MarkdownTools({ fieldId, draft }: { fieldId: string; draft?: { place: string; label: string } }) {
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

  const restored = useDraft(fieldId, draft);
  // A post's box takes pictures (issue 32): every kind of post names its text `body` (an event's or a
  // challenge's description does not). Decided here, in the late chunk, so no page's script grows.
  const images = ready && box()?.name === "body";
  const { status: imageStatus, input: imageInput, add: addImages, choose: chooseImages } = useImageUploads(fieldId, images);

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
    cn("border-b-2 px-3 py-1 text-sm font-semibold", active ? "border-monk text-monk-strong" : "border-transparent text-muted hover:text-stone-900");
  return (
    <>
      {restored ? (
        <p role="status" className="flex flex-wrap items-center gap-2 text-sm text-stone-700">
          Your draft from <time dateTime={restored.at}>{new Date(restored.at).toLocaleString()}</time> is back in the box.
          <button type="button" className="font-semibold text-warrior-strong underline" onClick={restored.discard}>
            Discard draft
          </button>
        </p>
      ) : null}
      <div className="flex flex-wrap items-end justify-between gap-2 border-b border-line">
        <div role="tablist" aria-label="Write or preview" className="flex gap-1">
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
        {images ? (
          <>
            <button
              type="button"
              className="mb-1 rounded-md border border-line px-2 py-0.5 text-sm font-semibold text-stone-800 hover:bg-stone-100"
              aria-describedby={`${fieldId}-images-help`}
              onClick={() => chooseImages()}
            >
              Add image
            </button>
            <input
              ref={imageInput}
              type="file"
              accept={IMAGE_TYPES}
              multiple
              hidden
              tabIndex={-1}
              aria-label="Images to add"
              onChange={(event) => {
                addImages(Array.from(event.currentTarget.files ?? []));
                event.currentTarget.value = "";
              }}
            />
          </>
        ) : null}
      </div>
      {images ? (
        <p id={`${fieldId}-images-help`} className="text-xs text-muted">
          {imageStatus ? (
            <span role={imageStatus.error ? "alert" : "status"} className={imageStatus.error ? "font-medium text-warrior-strong" : undefined}>
              {imageStatus.text}
            </span>
          ) : (
            "Add images with the button, or drop or paste them into the box (PNG, JPEG, WebP or GIF, up to 5 MB each)."
          )}
        </p>
      ) : null}
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

/**
 * A new post's draft (issue 32): the box's text is kept in this browser at each change and sent to
 * the server every DRAFT_SAVE_MS while it changes (and when the page is left), so that a closed tab,
 * a crash or a lost connection loses nothing; an empty box on the next visit gets it back, from this
 * browser or else from the server. Posting removes it (the server, with the post; the browser, on
 * submit); Discard removes it at once.
 */
function useDraft(fieldId: string, draft: { place: string; label: string } | undefined) {
  const [restored, setRestored] = useState<{ at: string; discard: () => void } | null>(null);
  const place = draft?.place;
  const label = draft?.label ?? "";
  // This browser's copy is the member's own: another member signed in here never gets it back.
  // (The root loader's viewer, read here rather than through useViewer, which rides in a chunk the share page does not load.)
  const member = (useRouteLoaderData("root") as { viewer: { handle: string } | null } | undefined)?.viewer?.handle;
  useEffect(() => {
    const area = document.getElementById(fieldId) as HTMLTextAreaElement | null;
    if (!area || !place || !member) return;
    const local = `draft:${member}:${place}`;
    let dirty = false;
    let alive = true;
    const send = (body: string, keepalive = false) =>
      fetch("/drafts", {
        method: "POST",
        keepalive,
        headers: { "content-type": "application/x-www-form-urlencoded" },
        // Whose draft it is: a page left open while another member signs in keeps nothing under them.
        body: new URLSearchParams({ place, body, label, url: `${location.pathname}${location.search}#${fieldId}`, member }),
      }).catch(() => undefined);
    const discard = () => {
      area.value = "";
      localStorage.removeItem(local);
      dirty = false;
      void send("");
      setRestored(null);
      area.dispatchEvent(new Event("input", { bubbles: true }));
      area.focus();
    };
    const restore = (body: string, at: string) => {
      if (!alive || area.value !== "") return;
      area.value = body;
      setRestored({ at, discard });
    };
    // Typed before this script arrived (the box works from the first paint): kept like any change.
    const typedAlready = area.value !== area.defaultValue;
    if (area.value === "") {
      const kept = localStorage.getItem(local);
      if (kept) {
        const { body, at } = JSON.parse(kept) as { body: string; at: string };
        restore(body, at);
      } else {
        void fetch(`/drafts?place=${encodeURIComponent(place)}`)
          .then((r) => (r.ok ? (r.json() as Promise<{ draft: { body: string; updatedAt: string } | null }>) : { draft: null }))
          .then(({ draft: found }) => found && restore(found.body, found.updatedAt))
          .catch(() => undefined);
      }
    }
    const onInput = () => {
      dirty = true;
      if (area.value.trim() === "") localStorage.removeItem(local);
      else localStorage.setItem(local, JSON.stringify({ body: area.value, at: new Date().toISOString() }));
    };
    if (typedAlready) onInput();
    const flush = (keepalive = false) => {
      if (!dirty) return;
      dirty = false;
      void send(area.value, keepalive);
    };
    const timer = setInterval(flush, DRAFT_SAVE_MS);
    const onHide = () => document.visibilityState === "hidden" && flush(true);
    // Posting: this browser's copy goes now; the server's goes with the post.
    const onSubmit = () => {
      dirty = false;
      localStorage.removeItem(local);
    };
    area.addEventListener("input", onInput);
    area.form?.addEventListener("submit", onSubmit);
    document.addEventListener("visibilitychange", onHide);
    return () => {
      alive = false;
      clearInterval(timer);
      flush(true);
      area.removeEventListener("input", onInput);
      area.form?.removeEventListener("submit", onSubmit);
      document.removeEventListener("visibilitychange", onHide);
    };
  }, [fieldId, place, label, member]);
  return restored;
}

const IMAGE_TYPES = "image/png,image/jpeg,image/webp,image/gif";
const IMAGE_MAX_BYTES = 5 * 1024 * 1024;

/**
 * Pictures in posts (issue 32, ADR 0071): images chosen with Add image, dropped on the box or
 * pasted into it are sent one at a time to POST /uploads/images, each first held in the text by a
 * placeholder at the caret, which the server's Markdown (the display size, with its width and
 * height) then replaces. Files the server would refuse by their size alone are refused here.
 */
function useImageUploads(fieldId: string, enabled: boolean) {
  const input = useRef<HTMLInputElement>(null);
  const [status, setStatus] = useState<{ text: string; error?: true } | null>(null);
  const queue = useRef<Promise<void>>(Promise.resolve());
  const sequence = useRef(0);

  function add(files: File[]) {
    const area = document.getElementById(fieldId) as HTMLTextAreaElement | null;
    if (!area || files.length === 0) return;
    if (files.length > POST_IMAGES_MAX) {
      setStatus({ text: `Add at most ${POST_IMAGES_MAX} images at once.`, error: true });
      return;
    }
    for (const file of files) {
      if (file.size > IMAGE_MAX_BYTES) {
        setStatus({ text: `${file.name} is larger than 5 MB.`, error: true });
        continue;
      }
      sequence.current += 1;
      const placeholder = `![Uploading ${file.name.replace(/[[\]\r\n]/g, " ")} (${sequence.current})…]()`;
      const { selectionStart: start, selectionEnd: end } = area;
      const before = area.value.slice(0, start);
      const text = `${before === "" || before.endsWith("\n") ? "" : "\n"}${placeholder}\n`;
      area.setRangeText(text, start, end, "end");
      area.dispatchEvent(new Event("input", { bubbles: true }));
      queue.current = queue.current.then(() => upload(area, file, placeholder));
    }
  }

  async function upload(area: HTMLTextAreaElement, file: File, placeholder: string) {
    setStatus({ text: `Uploading ${file.name}…` });
    const form = new FormData();
    form.append("image", file, file.name || "image.png");
    let answer: { markdown?: string; error?: string };
    try {
      const response = await fetch("/uploads/images", { method: "POST", body: form });
      answer = (await response.json()) as typeof answer;
    } catch {
      answer = { error: "The image could not be sent. Check your connection and try again." };
    }
    const at = area.value.indexOf(placeholder);
    const replacement = answer.markdown ?? "";
    if (at !== -1) {
      const end = at + placeholder.length + (replacement === "" && area.value[at + placeholder.length] === "\n" ? 1 : 0);
      area.setRangeText(replacement, at, end, "preserve");
      area.dispatchEvent(new Event("input", { bubbles: true }));
    }
    setStatus(answer.markdown ? { text: `${file.name} is added.` } : { text: answer.error ?? "The image could not be added.", error: true });
  }

  useEffect(() => {
    const area = document.getElementById(fieldId) as HTMLTextAreaElement | null;
    if (!enabled || !area) return;
    const imagesOf = (list: DataTransfer | null) => Array.from(list?.files ?? []).filter((f) => f.type.startsWith("image/"));
    const onPaste = (event: ClipboardEvent) => {
      const files = imagesOf(event.clipboardData);
      if (files.length === 0) return;
      event.preventDefault();
      add(files);
    };
    const onDragOver = (event: DragEvent) => {
      if (event.dataTransfer?.types.includes("Files")) event.preventDefault();
    };
    const onDrop = (event: DragEvent) => {
      const files = imagesOf(event.dataTransfer);
      if (files.length === 0) return;
      event.preventDefault();
      add(files);
    };
    area.addEventListener("paste", onPaste);
    area.addEventListener("dragover", onDragOver);
    area.addEventListener("drop", onDrop);
    return () => {
      area.removeEventListener("paste", onPaste);
      area.removeEventListener("dragover", onDragOver);
      area.removeEventListener("drop", onDrop);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the box is found by its id; add reads only refs and setters
  }, [fieldId, enabled]);

  return { input, status, add, choose: () => input.current?.click() };
}
