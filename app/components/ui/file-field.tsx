import { useEffect, useState, useSyncExternalStore, type ChangeEvent, type ReactNode } from "react";
import { cn } from "~/lib/utils";
import { buttonVariants } from "./button";
import { FieldError, Label } from "./form-controls";

const noSubscription = () => () => {};

export const NOT_AN_IMAGE = "This file is not an image we can show.";

type Chosen = { name: string } & ({ preview: "none" } | { preview: "loading" | "shown"; url: string } | { preview: "failed" });

/**
 * A file input that looks like a control (ADR 0047): the field's label, a button-like second label
 * bound to the real `<input type=file>` (which stays in the page, visually hidden, focusable, its
 * focus drawn around the button), the chosen file's name and, with `preview="image"`, a preview
 * made in the browser. The preview is shown only once the browser has decoded the file; a file it
 * cannot decode gets a sentence instead of a broken-image icon.
 *
 * Until hydration (and without JavaScript) it is the browser's own file input, which shows the
 * chosen name itself and submits the same way.
 */
export function FileField({
  id,
  name = id,
  label,
  buttonLabel,
  accept,
  help,
  error,
  preview = "none",
  current,
}: {
  id: string;
  name?: string;
  label: ReactNode;
  /** The button's words, e.g. "Choose an image". */
  buttonLabel: string;
  accept: string;
  /** A hint under the control (types, size), tied to the input. */
  help?: ReactNode;
  error?: string;
  preview?: "image" | "none";
  /** What is stored already (the edit form's current image), shown until a file is chosen. */
  current?: ReactNode;
}) {
  const hydrated = useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
  const [chosen, setChosen] = useState<Chosen | null>(null);
  const url = chosen && "url" in chosen ? chosen.url : null;
  useEffect(() => () => void (url && URL.revokeObjectURL(url)), [url]);

  const onChange = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.currentTarget.files?.[0];
    if (!file) return setChosen(null);
    if (preview !== "image") return setChosen({ name: file.name, preview: "none" });
    // Decoded off the page first: the <img> is rendered only for a file the browser can show.
    const objectUrl = URL.createObjectURL(file);
    setChosen({ name: file.name, preview: "loading", url: objectUrl });
    const probe = new Image();
    const settle = (ok: boolean) =>
      setChosen((now) => (now && "url" in now && now.url === objectUrl ? (ok ? { ...now, preview: "shown" } : { name: now.name, preview: "failed" }) : now));
    probe.onload = () => settle(true);
    probe.onerror = () => settle(false);
    probe.src = objectUrl;
  };

  const helpId = `${id}-help`;
  const errorId = `${id}-error`;
  const nameId = `${id}-chosen`;
  const describedBy = [hydrated ? nameId : null, error ? errorId : null, help ? helpId : null].filter(Boolean).join(" ") || undefined;

  return (
    <div data-slot="file-field" className="flex flex-col gap-2">
      <Label htmlFor={id}>{label}</Label>
      <div className="flex flex-wrap items-center gap-3">
        <input
          id={id}
          name={name}
          type="file"
          accept={accept}
          onChange={onChange}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          className={cn(
            hydrated
              ? "peer sr-only"
              : "text-sm file:mr-3 file:rounded-md file:border file:border-stone-300 file:bg-white file:px-3 file:py-2 file:font-semibold file:text-ink focus-visible:outline-3 focus-visible:outline-offset-2",
          )}
        />
        {hydrated ? (
          <>
            {/* A second label of the same input: a click on it opens the file chooser, as the input would. */}
            <label
              htmlFor={id}
              className={cn(
                buttonVariants({ variant: "outline" }),
                "cursor-pointer peer-focus-visible:outline-3 peer-focus-visible:outline-offset-2 peer-aria-[invalid=true]:border-warrior",
              )}
            >
              {buttonLabel}
            </label>
            <span id={nameId} className="min-w-0 break-all text-sm text-ink">
              {chosen ? chosen.name : "No file chosen"}
            </span>
          </>
        ) : null}
      </div>
      {help ? (
        <p id={helpId} className="text-xs text-muted">
          {help}
        </p>
      ) : null}
      <FieldError id={errorId}>{error}</FieldError>
      <div aria-live="polite">{chosen?.preview === "failed" ? <p className="text-sm font-medium text-warrior-strong">{NOT_AN_IMAGE}</p> : null}</div>
      {chosen && "url" in chosen && chosen.preview === "shown" ? (
        <img src={chosen.url} alt="Preview of the chosen image" className="mt-2 max-h-64 w-auto self-start rounded-md border border-line object-contain" />
      ) : !chosen ? (
        current
      ) : null}
    </div>
  );
}
