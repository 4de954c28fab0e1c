/** A positive database id from a URL segment, or null for anything else ("12abc", "-1", "1e3"). */
export function parseId(value: string | undefined): number | null {
  if (!value || !/^[1-9][0-9]{0,14}$/.test(value)) return null;
  return Number(value);
}
