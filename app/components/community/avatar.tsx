import { initialsOf } from "~/lib/utils";

/**
 * How many background tones generated avatars take. app/app.css draws each (`data-tone`), with the
 * circle, the sizes (`data-size`) and the initials' type, so that every page's script, which
 * carries the avatar, holds none of it (ADR 0072).
 */
const TONES = 10;

/** The same member always gets the same colour: a small string hash of the handle picks the tone. */
export function avatarTone(key: string) {
  let hash = 0;
  for (const ch of key) hash = (hash * 31 + ch.codePointAt(0)!) >>> 0;
  return hash % TONES;
}

/** 32, 36 and 64 CSS pixels (app/app.css). */
type AvatarSize = "sm" | "md" | "lg";

/**
 * A member's picture (ADR 0072) when they uploaded one, else their initials on a colour derived
 * from their handle. Decorative either way (the name is always shown or announced beside it): the
 * picture has an empty alt, the initials are hidden from assistive technology. The picture sits on
 * the same coloured circle, which shows until it has loaded.
 */
export function Avatar({ member, size = "md" }: { member: { name: string; handle: string; avatar?: string | null }; size?: AvatarSize }) {
  const look = { "data-slot": "avatar", "data-size": size, "data-tone": avatarTone(member.handle) };
  if (member.avatar) {
    // Stored sizes (avatarFileName in app/lib/media.ts) for the 32–36 and the 64 pixel boxes, at one
    // and two device pixels per CSS pixel; the stylesheet gives the box its size.
    const [one, two] = size === "lg" ? [96, 256] : [48, 96];
    const file = (side: number) => `/media/${member.avatar}-avatar${side}.webp`;
    return <img src={file(one)} srcSet={`${file(two)} 2x`} alt="" {...look} />;
  }
  return (
    <span aria-hidden="true" {...look}>
      {initialsOf(member.name)}
    </span>
  );
}
