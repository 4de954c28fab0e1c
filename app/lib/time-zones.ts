/** Every member starts here until the browser (at join) or the member (in settings) says otherwise. */
export const DEFAULT_TIME_ZONE = "UTC";

/** The IANA zones this runtime knows, with "UTC" (some runtimes list only "Etc/UTC"). */
export function timeZoneNames(): string[] {
  const names = new Set(Intl.supportedValuesOf("timeZone"));
  names.add(DEFAULT_TIME_ZONE);
  return [...names].sort();
}

let known: Set<string> | undefined;

/**
 * Whether the name is a time zone that exists. The list is canonical names; a browser may report
 * an older alias of one ("Asia/Calcutta"), which the runtime still resolves, so that counts too.
 */
export function isTimeZone(value: string): boolean {
  if (value.length === 0 || value.length > 64 || !/^[A-Za-z0-9_+\-/]+$/.test(value)) return false;
  known ??= new Set(timeZoneNames());
  if (known.has(value)) return true;
  try {
    new Intl.DateTimeFormat("en", { timeZone: value });
    return true;
  } catch {
    return false;
  }
}
