/**
 * Pictures in posts (issue 32, ADR 0071): how an uploaded image is written in Markdown. The size
 * rides in the alt text after a `|`, as Discourse writes it (`![form|1600x1200](/media/…)`); the
 * server's renderer turns it into the image's width and height.
 */

/** Images one post may show, whatever the rank (an initiate's limit is lower: lib/privileges.ts). */
export const POST_IMAGES_MAX = 10;
export const POST_IMAGES_MAX_MESSAGE = `A post may show at most ${POST_IMAGES_MAX} images. Remove some, or share them in more than one post.`;

/** The alt text a file's name gives: its name without the extension, without Markdown's brackets. */
export function altFromFileName(fileName: string): string {
  const base = fileName.replace(/\.[A-Za-z0-9]{1,5}$/, "");
  return base
    .replace(/[[\]|\\\s]+/g, " ")
    .trim()
    .slice(0, 100);
}

export function postImageMarkdown(fileName: string, url: string, width: number, height: number): string {
  return `![${altFromFileName(fileName) || "image"}|${width}x${height}](${url})`;
}
