/**
 * Uploaded files are served by the resource route `/media/:name` (ADR 0020) under names the server
 * generates: 32 hex characters of randomness, an optional variant and the stored format's
 * extension. The pattern is checked before any SQL, so a name from a URL can never carry `../`,
 * control characters or an extension that would render as a page.
 */
export const MEDIA_NAME_PATTERN = /^[0-9a-f]{32}(?:-(?:full|display|thumb|avatar(?:48|96|256)))?\.(?:webp|png|jpg|gif|mp3|ogg|wav)$/;

/** Whether a string is a name the media store could have generated. */
export function isMediaName(value: unknown): value is string {
  return typeof value === "string" && MEDIA_NAME_PATTERN.test(value);
}

/** The URL a stored file is served under. */
export function mediaUrl(name: string): string {
  return `/media/${encodeURIComponent(name)}`;
}

/**
 * A member's picture (issue 32, ADR 0072) is stored square in these sizes: 48 and 96 for the 32–64
 * pixel boxes it shows in at one and two device pixels per CSS pixel, 256 for the profile on
 * sharper screens. `member.avatar` holds the base the three files share.
 */
export const AVATAR_SIZES = [48, 96, 256] as const;
export type AvatarSize = (typeof AVATAR_SIZES)[number];

/** The stored name of one size of a member's picture. */
export function avatarFileName(base: string, size: AvatarSize) {
  return `${base}-avatar${size}.webp`;
}
