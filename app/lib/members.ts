/**
 * What a deleted account leaves behind (ADR 0023): its posts stay, signed with this name, and its
 * handle becomes "deleted-<random>", a prefix no living member's handle can take (join avoids it).
 */
export const DELETED_MEMBER_NAME = "[deleted member]";
export const DELETED_HANDLE_PREFIX = "deleted-";

/** Handles are slugs (app/lib/slug.ts) with an optional "-n" suffix: anything else is no profile. */
const HANDLE = /^[a-z0-9][a-z0-9-]{0,79}$/;

export function isDeletedHandle(handle: string): boolean {
  return handle.startsWith(DELETED_HANDLE_PREFIX);
}

/** The profile page of a member, or null when there is none to link to (a deleted account). */
export function profilePath(handle: string): string | null {
  return isDeletedHandle(handle) ? null : `/members/${handle}`;
}

/** Whether a path segment could be a living member's handle at all (odd characters are a 404). */
export function isProfileHandle(value: string): boolean {
  return HANDLE.test(value) && !isDeletedHandle(value);
}
