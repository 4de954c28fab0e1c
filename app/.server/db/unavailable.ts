/**
 * Whether an error means "the database cannot be reached right now" (a 503 to retry later) rather
 * than a bug (a 500). One place decides it for both engines, from the error itself: pg and Node
 * socket codes, PostgreSQL SQLSTATEs, and node:sqlite result codes. Wrapped errors (Better Auth,
 * migrations) are followed through `cause`, and dual-stack connects through AggregateError.
 */

/** Seconds a client (or a balancer) should wait before retrying a 503 for an unreachable database. */
export const RETRY_AFTER_SECONDS = 10;

/** Socket-level failures from Node's net module while connecting or mid-query. */
const SOCKET_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "EHOSTUNREACH", "ENETUNREACH", "EHOSTDOWN", "ENOTFOUND", "EAI_AGAIN"]);

/**
 * PostgreSQL SQLSTATEs (https://www.postgresql.org/docs/current/errcodes-appendix.html): class 08
 * connection exceptions, 57P01-57P03 shutdown/starting up, 53300 too many connections, 3D000 the
 * database does not exist (renamed or dropped under us).
 */
const PG_STATES = new Set(["57P01", "57P02", "57P03", "53300", "3D000"]);

/** pg and pg-pool raise plain Errors for these; their messages are the only signal. */
const PG_MESSAGES = [/^Connection terminated/, /timeout exceeded when trying to connect/i, /is not queryable/, /is not currently accepting connections/];

/**
 * node:sqlite result codes (https://sqlite.org/rescode.html), primary byte: SQLITE_BUSY (5) after
 * busy_timeout, SQLITE_LOCKED (6), SQLITE_IOERR (10), SQLITE_CANTOPEN (14).
 */
const SQLITE_CODES = new Set([5, 6, 10, 14]);

interface Inspectable {
  code?: unknown;
  errcode?: unknown;
  message?: unknown;
  cause?: unknown;
  errors?: unknown;
}

function own(error: Inspectable): boolean {
  if (typeof error.code === "string") {
    if (SOCKET_CODES.has(error.code) || PG_STATES.has(error.code) || error.code.startsWith("08")) return true;
  }
  if (error.code === "ERR_SQLITE_ERROR" && typeof error.errcode === "number" && SQLITE_CODES.has(error.errcode & 0xff)) {
    return true;
  }
  return typeof error.message === "string" && PG_MESSAGES.some((re) => re.test(error.message as string));
}

export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (depth > 5 || typeof error !== "object" || error === null) return false;
  const e = error as Inspectable;
  if (own(e)) return true;
  if (Array.isArray(e.errors) && e.errors.some((inner) => isDatabaseUnavailable(inner, depth + 1))) return true;
  return isDatabaseUnavailable(e.cause, depth + 1);
}

/** A short reason for a log line: the code when there is one, else the first line of the message. */
export function unavailableReason(error: unknown, depth = 0): string {
  if (typeof error !== "object" || error === null) return String(error);
  const e = error as Inspectable;
  if (depth < 5 && !own(e)) {
    if (Array.isArray(e.errors) && e.errors.length > 0) return unavailableReason(e.errors[0], depth + 1);
    if (e.cause) return unavailableReason(e.cause, depth + 1);
  }
  if (typeof e.code === "string" && e.code !== "ERR_SQLITE_ERROR") return e.code;
  const message = typeof e.message === "string" ? e.message.split("\n")[0] : String(error);
  return message;
}

/** A connection string fit for a log line: scheme, host, port and database, never the password. */
export function describeDatabaseUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.hostname}${u.port ? `:${u.port}` : ""}${u.pathname}`;
  } catch {
    return "(unparseable DATABASE_URL)";
  }
}
