import { createHash } from "node:crypto";

/**
 * What makes two submits one write (ADR 0009, 0052): the form's key *and* what was submitted. The
 * same form sent twice (a double click, a retry after a lost answer) stores the same bound key, so
 * the unique index on (author, submission_key) makes it one row; the same key sent with anything
 * else (two tabs of one kept page, ADR 0040) stores another key and is a write of its own.
 *
 * `submitted` lists what the member chose, in a fixed order: text, choices, numbers, times (as
 * `Date` or ISO text) and files (their bytes, hashed apart so a large upload is never made into
 * JSON). Values worked out by the server (an activity time, rendered HTML) must not be in it: they
 * differ between two sends of one form.
 */
export function boundKey(formKey: string, submitted: readonly unknown[]): string {
  const parts = submitted.map((part) => (part instanceof Uint8Array ? { file: fileDigest(part) } : (part ?? null)));
  // 22 base64url characters: 132 bits, past any chance of two submissions of one key meeting.
  return `${formKey}.${createHash("sha256").update(JSON.stringify(parts)).digest("base64url").slice(0, 22)}`;
}

const fileDigests = new WeakMap<Uint8Array, string>();

/** A file's hash, worked out once per upload: a share binds its key before and after its turn. */
function fileDigest(file: Uint8Array): string {
  let digest = fileDigests.get(file);
  if (digest === undefined) {
    digest = createHash("sha256").update(file).digest("base64url");
    fileDigests.set(file, digest);
  }
  return digest;
}
