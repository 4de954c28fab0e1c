import { useEffect, useRef, useState, useSyncExternalStore, type ChangeEvent, type FormEvent } from "react";
import { MarkdownField } from "~/components/community/markdown-field";
import type { ZodMiniType } from "zod/mini";
import { Button } from "~/components/ui/button";
import { CardContent, CardFooter } from "~/components/ui/card";
import { FileField } from "~/components/ui/file-field";
import { FieldError, FormAlert, Label, TextAreaField, TextField } from "~/components/ui/form-controls";
import type { CreationType } from "~/lib/domain-values";
import { mediaUrl } from "~/lib/media";
import { firstErrors, formToObject, type FieldErrors } from "~/schemas/form-data";
import { AUDIO_MAX_BYTES, CREATION_TITLE_MAX, DESCRIPTION_MAX, IMAGE_MAX_BYTES, LINK_MAX, MARKDOWN_HELP } from "~/schemas/fields";
import { BODY_MAX } from "~/schemas/fields";
import { ART_NEEDS_IMAGE, MUSIC_NEEDS_AUDIO } from "~/schemas/forge-messages";
import { CREATION_LABELS } from "./creation-types";

export interface CreationDefaults {
  title: string;
  description: string;
  type: CreationType;
  body: string;
  linkUrl: string;
  /** The stored image or audio, when editing. */
  imageName?: string | null;
  audioName?: string | null;
}

const noSubscription = () => () => {};

/** The messages on a page the server answered with: each field's, and the form's alert. */
function messagesIn(page: Document | null, status: number): FieldErrors {
  const found: FieldErrors = {};
  for (const el of page?.querySelectorAll<HTMLElement>("form [data-slot=field-error]") ?? []) found[el.id.replace(/-error$/, "")] = el.textContent ?? "";
  // A page that no longer shows the form (the day's last post went elsewhere) says why in its place.
  const alert = page?.querySelector("form [data-slot=form-alert]")?.textContent ?? page?.querySelector("main [data-slot=posts-left]")?.textContent;
  if (alert) found.form = alert;
  if (Object.keys(found).length === 0) found.form = status === 413 ? "The upload is too large." : "Something went wrong. Please try again.";
  return found;
}

/** Whether "Your work" is needed: only Writing's work is its text (ADR 0047). */
const WORK_HELP: Record<CreationType | "any", string> = {
  writing: "Required: for Writing, the text is the work.",
  art: "Optional: the image is the work; add words about it if you like.",
  music: "Optional: the recording is the work; add words about it if you like.",
  projects: "Optional: the link is the work; add words about it if you like.",
  any: "Required for Writing; optional for Visual Art, Music and Projects, whose image, recording or link is the work.",
};

const EMPTY: CreationDefaults = { title: "", description: "", type: "writing", body: "", linkUrl: "" };
const TYPES = Object.keys(CREATION_LABELS) as CreationType[];

/**
 * The share and edit form. Without JavaScript it is a plain multipart form post showing every field
 * (each says which type it is for). With JavaScript it shows the fields of the chosen type, a
 * preview of the chosen image, and sends the same form with XMLHttpRequest for its upload progress
 * (fetch cannot report it).
 */
export function CreationForm({
  loadSchema,
  submissionKey,
  defaults = EMPTY,
  serverErrors,
  submitLabel,
  keep,
}: {
  /** Fetches the form's schema (and zod) after hydration (ADR 0029); define it once, outside the component. */
  loadSchema: () => Promise<ZodMiniType>;
  submissionKey?: string;
  defaults?: CreationDefaults;
  serverErrors?: FieldErrors;
  submitLabel: string;
  /** Where a half-written creation is kept (issue 32); an edit keeps none. */
  keep?: { place: string; label: string };
}) {
  // False in the server's HTML (every field shows, for browsers without JavaScript), true once hydrated.
  const hydrated = useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
  const [type, setType] = useState<CreationType>(defaults.type);
  const [progress, setProgress] = useState<number | null>(null);
  const [errors, setErrors] = useState<FieldErrors>(serverErrors ?? {});
  const validated = useRef(false);
  const schema = useRef<ZodMiniType | null>(null);
  useEffect(() => {
    loadSchema().then(
      (loaded) => void (schema.current = loaded),
      () => undefined, // the submit tries again; the server validates anyway
    );
  }, [loadSchema]);

  const shows = (which: CreationType) => !hydrated || type === which;

  const check = (form: HTMLFormElement): FieldErrors => {
    const result = schema.current?.safeParse(formToObject(form));
    const found: FieldErrors = !result || result.success ? {} : firstErrors(result.error.issues);
    const file = (name: string) => (form.elements.namedItem(name) as HTMLInputElement | null)?.files?.[0];
    const image = file("image");
    const audio = file("audio");
    if (type === "art" && image && image.size > IMAGE_MAX_BYTES) found.image = "The image is larger than 5 MB.";
    if (type === "art" && !image && !defaults.imageName) found.image = ART_NEEDS_IMAGE;
    if (type === "music" && audio && audio.size > AUDIO_MAX_BYTES) found.audio = "The audio file is larger than 20 MB.";
    if (type === "music" && !audio && !defaults.audioName) found.audio = MUSIC_NEEDS_AUDIO;
    return found;
  };

  const onChange = (event: ChangeEvent<HTMLFormElement>) => {
    if (validated.current) setErrors(check(event.currentTarget));
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    validated.current = true;
    schema.current ??= await loadSchema().catch(() => null);
    const found = check(form);
    setErrors(found);
    const first = Object.keys(found)[0];
    if (first) {
      const field = form.elements.namedItem(first);
      if (field instanceof HTMLElement) field.focus();
      return;
    }
    const body = new FormData(form);
    // Files of the other types stay home (the server would refuse them).
    if (type !== "art") body.delete("image");
    if (type !== "music") body.delete("audio");
    const xhr = new XMLHttpRequest();
    xhr.open("POST", form.action);
    // The server answers this request as it answers the form without JavaScript: a redirect to the
    // creation (followed here), or the form's page again with its messages, read from that page.
    xhr.responseType = "document";
    xhr.upload.onprogress = (e) => e.lengthComputable && setProgress(Math.round((e.loaded / e.total) * 100));
    xhr.onload = () => {
      if (xhr.status === 200 && new URL(xhr.responseURL).pathname !== new URL(form.action).pathname) return window.location.assign(xhr.responseURL);
      setProgress(null);
      setErrors(messagesIn(xhr.response as Document | null, xhr.status));
    };
    xhr.onerror = () => {
      setProgress(null);
      setErrors({ form: "The upload failed. Check your connection and try again." });
    };
    setProgress(0);
    xhr.send(body);
  };

  const busy = progress !== null;
  const described = (name: string, help?: boolean) =>
    [errors[name] ? `${name}-error` : null, help ? `${name}-help` : null].filter(Boolean).join(" ") || undefined;

  return (
    <form method="post" encType="multipart/form-data" noValidate onSubmit={onSubmit} onChange={onChange}>
      {submissionKey ? <input type="hidden" name="submissionKey" value={submissionKey} /> : null}
      <CardContent className="flex flex-col gap-5 pt-6">
        <FormAlert>{errors.form ?? errors.submissionKey}</FormAlert>
        <TextField name="title" label="Title" error={errors.title} maxLength={CREATION_TITLE_MAX} defaultValue={defaults.title} />
        <TextAreaField
          name="description"
          label="Description"
          rows={3}
          maxLength={DESCRIPTION_MAX}
          error={errors.description}
          defaultValue={defaults.description}
          help="A sentence or two for the Forge list (optional, up to 500 characters)."
        />
        <div className="flex flex-col gap-2">
          <Label htmlFor="type">Type</Label>
          <select
            id="type"
            name="type"
            value={type}
            onChange={(e) => setType(e.currentTarget.value as CreationType)}
            aria-invalid={errors.type ? true : undefined}
            aria-describedby={described("type")}
            className="h-10 w-full rounded-md border border-stone-300 bg-white px-3 text-base text-ink focus-visible:outline-3 focus-visible:outline-offset-1"
          >
            {TYPES.map((t) => (
              <option key={t} value={t}>
                {CREATION_LABELS[t]}
              </option>
            ))}
          </select>
          <FieldError id="type-error">{errors.type}</FieldError>
        </div>
        <MarkdownField
          name="body"
          draft={keep}
          label="Your work"
          rows={10}
          maxLength={BODY_MAX}
          error={errors.body}
          defaultValue={defaults.body}
          help={`${WORK_HELP[hydrated ? type : "any"]} ${MARKDOWN_HELP}`}
        />
        {shows("art") ? (
          <FileField
            id="image"
            label={`Image${hydrated ? "" : " (Visual Art)"}`}
            buttonLabel="Choose an image"
            accept="image/png,image/jpeg,image/webp,image/gif"
            preview="image"
            error={errors.image}
            help={`PNG, JPEG, WebP or GIF, at most 5 MB. Location and camera details are removed.${defaults.imageName ? " Leave empty to keep the current image." : ""}`}
            current={
              defaults.imageName ? (
                <img
                  src={mediaUrl(defaults.imageName)}
                  alt="The current image"
                  className="mt-2 max-h-64 w-auto self-start rounded-md border border-line object-contain"
                />
              ) : null
            }
          />
        ) : null}
        {shows("music") ? (
          <FileField
            id="audio"
            label={`Audio file${hydrated ? "" : " (Music)"}`}
            buttonLabel="Choose an audio file"
            accept="audio/mpeg,audio/ogg,audio/wav,.mp3,.ogg,.wav"
            error={errors.audio}
            help={`MP3, OGG or WAV, at most 20 MB.${defaults.audioName ? " Leave empty to keep the current recording." : ""}`}
          />
        ) : null}
        {shows("projects") ? (
          <TextField
            name="linkUrl"
            type="url"
            label={hydrated ? "Project link" : "Project link (Projects)"}
            placeholder="https://"
            maxLength={LINK_MAX}
            error={errors.linkUrl}
            defaultValue={defaults.linkUrl}
          />
        ) : null}
        {busy ? (
          <div className="flex flex-col gap-2">
            <Label htmlFor="upload-progress">Uploading… {progress}%</Label>
            <progress id="upload-progress" max={100} value={progress} className="w-full" />
          </div>
        ) : null}
      </CardContent>
      <CardFooter>
        <Button type="submit" variant="monk" disabled={busy}>
          {busy ? "Uploading..." : submitLabel}
        </Button>
      </CardFooter>
    </form>
  );
}
