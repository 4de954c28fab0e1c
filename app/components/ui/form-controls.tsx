import type { ComponentProps, ReactNode } from "react";
import { cn } from "~/lib/utils";
import { MESSAGE_SEPARATOR } from "~/lib/form-messages";

const control =
  "w-full rounded-md border border-stone-300 bg-white px-3 py-2 text-base text-ink placeholder:text-stone-500 focus-visible:outline-3 focus-visible:outline-offset-1 aria-[invalid=true]:border-warrior disabled:opacity-60";

/** A text box unless told otherwise: an input without a type is valid HTML but tools read it as unknown. */
export function Input({ className, type = "text", ...props }: ComponentProps<"input">) {
  return <input data-slot="input" type={type} className={cn(control, "h-10", className)} {...props} />;
}

export function Textarea({ className, ...props }: ComponentProps<"textarea">) {
  return <textarea data-slot="textarea" className={cn(control, "min-h-24", className)} {...props} />;
}

export function Label({ className, ...props }: ComponentProps<"label">) {
  return <label data-slot="label" className={cn("text-sm font-medium text-ink", className)} {...props} />;
}

export function Checkbox({ className, ...props }: Omit<ComponentProps<"input">, "type">) {
  return <input type="checkbox" data-slot="checkbox" className={cn("size-4 shrink-0 rounded border-stone-400 accent-monk", className)} {...props} />;
}

export function FieldError({ id, children }: { id: string; children?: ReactNode }) {
  if (!children) return null;
  // Several messages (a password failing more than one rule) read as a list, each on its own line.
  const messages = typeof children === "string" ? children.split(MESSAGE_SEPARATOR) : [];
  if (messages.length > 1) {
    return (
      <ul id={id} data-slot="field-error" className="flex flex-col gap-1 text-sm font-medium text-warrior">
        {messages.map((message) => (
          <li key={message}>{message}</li>
        ))}
      </ul>
    );
  }
  return (
    <p id={id} data-slot="field-error" className="text-sm font-medium text-warrior">
      {children}
    </p>
  );
}

interface FieldProps extends Omit<ComponentProps<"input">, "name"> {
  name: string;
  label: string;
  error?: string;
  /** What the field takes, shown under it before any submit. */
  hint?: string;
}

/** A labelled input with its hint and its message, both tied to the input for screen readers. */
export function TextField({ name, label, error, hint, className, id = name, ...props }: FieldProps) {
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const describedBy = [hint ? hintId : "", error ? errorId : ""].filter(Boolean).join(" ") || undefined;
  return (
    <div className={cn("flex flex-col gap-2", className)}>
      <Label htmlFor={id}>{label}</Label>
      <Input id={id} name={name} aria-invalid={error ? true : undefined} aria-describedby={describedBy} {...props} />
      {hint ? (
        <p id={hintId} data-slot="field-hint" className="text-sm text-muted">
          {hint}
        </p>
      ) : null}
      <FieldError id={errorId}>{error}</FieldError>
    </div>
  );
}

/** A message about the whole form (wrong credentials, a limit reached); nothing when empty. */
export function FormAlert({ children }: { children?: ReactNode }) {
  if (!children) return null;
  return (
    <p role="alert" data-slot="form-alert" className="rounded-md bg-warrior-soft p-3 text-sm font-medium text-warrior-strong">
      {children}
    </p>
  );
}

export interface TextAreaFieldProps extends Omit<ComponentProps<"textarea">, "name"> {
  name: string;
  label: ReactNode;
  error?: string;
  /** A hint under the box (e.g. that Markdown works), tied to it for screen readers. */
  help?: ReactNode;
  /** Controls between the label and the box (a Markdown box's Write / Preview tabs). */
  toolbar?: ReactNode;
}

/** A labelled multi-line box with its hint and message, like TextField. */
export function TextAreaField({ name, label, error, help, toolbar, className, id = name, ...props }: TextAreaFieldProps) {
  const errorId = `${id}-error`;
  const helpId = `${id}-help`;
  const describedBy = [error ? errorId : null, help ? helpId : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className={cn("flex flex-col gap-2", className)}>
      <Label htmlFor={id}>{label}</Label>
      {toolbar}
      <Textarea id={id} name={name} aria-invalid={error ? true : undefined} aria-describedby={describedBy} {...props} />
      {help ? (
        <p id={helpId} className="text-xs text-muted">
          {help}
        </p>
      ) : null}
      <FieldError id={errorId}>{error}</FieldError>
    </div>
  );
}
