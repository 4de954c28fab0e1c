import { cn, initialsOf } from "~/lib/utils";

/**
 * Backgrounds for generated avatars. Each is dark enough for white initials to pass WCAG AA at
 * small sizes (4.5:1 or better), so axe stays clean wherever an avatar shows.
 */
const TONES = [
  "bg-teal-700",
  "bg-sky-700",
  "bg-indigo-700",
  "bg-violet-700",
  "bg-fuchsia-800",
  "bg-rose-700",
  "bg-amber-800",
  "bg-emerald-800",
  "bg-cyan-800",
  "bg-stone-700",
] as const;

/** The same member always gets the same colour: a small string hash of the handle picks the tone. */
export function avatarTone(key: string) {
  let hash = 0;
  for (const ch of key) hash = (hash * 31 + ch.codePointAt(0)!) >>> 0;
  return TONES[hash % TONES.length];
}

const SIZES = {
  sm: "size-8 text-xs",
  md: "size-9 text-sm",
  lg: "size-16 text-xl",
} as const;

/**
 * A member's initials on a colour derived from their handle. Decorative (the name is always shown
 * or announced beside it), so it is hidden from assistive technology.
 */
export function Avatar({ name, handle, size = "md", className }: { name: string; handle: string; size?: keyof typeof SIZES; className?: string }) {
  return (
    <span
      aria-hidden="true"
      data-slot="avatar"
      className={cn(
        "inline-flex shrink-0 select-none items-center justify-center rounded-full font-semibold text-white",
        SIZES[size],
        avatarTone(handle),
        className,
      )}
    >
      {initialsOf(name)}
    </span>
  );
}
