/**
 * Uploaded files are served by the resource route `/media/:name` (ADR 0020) under names the server
 * generates: 32 hex characters of randomness, an optional variant and the stored format's
 * extension. The pattern is checked before any SQL, so a name from a URL can never carry `../`,
 * control characters or an extension that would render as a page.
 */
export const MEDIA_NAME_PATTERN = /^[0-9a-f]{32}(?:-(?:full|display|thumb))?\.(?:webp|png|jpg|gif|mp3|ogg|wav)$/;

/** Whether a string is a name the media store could have generated. */
export function isMediaName(value: unknown): value is string {
  return typeof value === "string" && MEDIA_NAME_PATTERN.test(value);
}

/** The URL a stored file is served under. */
export function mediaUrl(name: string): string {
  return `/media/${encodeURIComponent(name)}`;
}
