import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";

const flag = z
  .enum(["1", "0", "true", "false", "on", "off", "yes", "no"], {
    error: "must be one of on/off, true/false, 1/0, yes/no",
  })
  .transform((v) => ["1", "true", "on", "yes"].includes(v));

/** Today's sender, so the README's two commands need no set-up; the .invalid domain never routes. */
export const DEFAULT_MAIL_FROM = '"Inner Peace. Outer Strength." <hello@innerpeace.invalid>';

/**
 * The address in a From value: `name@example.org`, or a display name with `<name@example.org>`.
 * Undefined when it is not one plain address (a list, a line break, text around the brackets).
 */
export function mailFromAddress(value: string): string | undefined {
  // eslint-disable-next-line no-control-regex -- a control character would end or split the header
  if (/[\u0000-\u001f\u007f]/.test(value)) return undefined;
  const match = value.trim().match(/^(?:(?:"[^"\\]*"|[^"<>,;@]*)\s*<([^<>\s]+)>|([^<>\s",;]+))$/);
  const address = match?.[1] ?? match?.[2];
  return address && z.email().safeParse(address).success ? address : undefined;
}

const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
  PORT: z.coerce
    .number({ error: "must be a port number" })
    .int("must be a whole number")
    .min(0, "must be 0 to 65535")
    .max(65535, "must be 0 to 65535")
    .default(3000),
  HOST: z.string().min(1).default("0.0.0.0"),
  DATA_DIR: z.string().min(1, "must not be empty").default("./data"),
  DATABASE_URL: z
    .string()
    .regex(/^(postgres(ql)?:\/\/|file:|sqlite:)/, "must start with postgres:// (PostgreSQL) or be left unset (SQLite)")
    .optional(),
  /** How many connections one process keeps to PostgreSQL at most (the pool's size). */
  DATABASE_POOL_SIZE: z.coerce
    .number({ error: "must be a number" })
    .int("must be a whole number")
    .min(1, "must be 1 to 100")
    .max(100, "must be 1 to 100")
    .default(10),
  BASE_URL: z.url({ error: "must be an absolute URL such as https://example.org" }).optional(),
  AUTH_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  DEMO_CONTENT: flag.default(true),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  SMTP_URL: z.string().optional(),
  /** The From of every mail; its domain is also the Message-ID's. */
  MAIL_FROM: z
    .string()
    .refine((v) => mailFromAddress(v) !== undefined, {
      error: 'must be one address, such as hello@example.org or "Site name" <hello@example.org>',
    })
    .default(DEFAULT_MAIL_FROM),
  /**
   * PostgreSQL: the site's statements sent as named prepared statements, parsed and planned once per
   * connection (ADR 0079). Off for a pooler that cannot keep them (PgBouncer before 1.21 in
   * transaction mode, or without max_prepared_statements).
   */
  DATABASE_PREPARED_STATEMENTS: flag.default(true),
  /** How long the first connection to the database is retried at start before the process gives up. */
  DATABASE_RETRY_SECONDS: z.coerce.number({ error: "must be a number of seconds" }).int("must be a whole number").min(0).default(60),
  /** Where `npm run backup` and the scheduled backups write (ADR 0073); unset: DATA_DIR/backups. */
  BACKUP_DIR: z.string().min(1, "must not be empty").optional(),
  /** A backup by the app process whenever the newest in BACKUP_DIR is this many hours old; 0: none. */
  BACKUP_EVERY_HOURS: z.coerce.number({ error: "must be a number of hours" }).min(0, "must be 0 (off) or more").default(0),
  /** How many backups BACKUP_DIR keeps (the newest); the scheduled backup deletes the older ones. */
  BACKUP_KEEP: z.coerce.number({ error: "must be a number" }).int("must be a whole number").min(1, "must be at least 1").default(7),
  /**
   * How long an instance's claim on a mail holds (ADR 0025): a mail claimed by an instance that died
   * before sending it is sent by another once this has passed.
   */
  MAIL_LEASE_SECONDS: z.coerce.number({ error: "must be a number of seconds" }).int("must be a whole number").min(1).max(3600).default(300),
  /** After SIGTERM: how long /healthz says 503 while the site still accepts connections (within the 10 s bound). */
  SHUTDOWN_DRAIN_SECONDS: z.coerce.number({ error: "must be a number of seconds" }).min(0).max(8, "must be at most 8 (shutdown is bounded at 10 s)").default(2),
  /** The anonymous page cache in front of the app (ADR 0026); off serves every request through React Router. */
  PAGE_CACHE: flag.default(true),
  /** The cache's safety net: no page is served from memory older than this, whatever the invalidation says. */
  PAGE_CACHE_TTL_SECONDS: z.coerce
    .number({ error: "must be a number of seconds" })
    .int("must be a whole number")
    .min(1, "must be at least 1")
    .max(86400, "must be at most 86400")
    .default(60),
  /** Memory the cache may hold (all encodings of all pages), least recently used dropped first. */
  PAGE_CACHE_MAX_MB: z.coerce
    .number({ error: "must be a number of megabytes" })
    .int("must be a whole number")
    .min(1, "must be at least 1")
    .max(4096, "must be at most 4096")
    .default(64),
  /**
   * Pages the app renders at once (ADR 0077); past it a page read waits in line. Under load each
   * page in progress slows every other one; 0 is no limit.
   */
  PAGES_AT_ONCE: z.coerce
    .number({ error: "must be a number" })
    .int("must be a whole number")
    .min(0, "must be 0 to 1000")
    .max(1000, "must be 0 to 1000")
    .default(2),
  /**
   * Checks the page cache's tags against the SQL each request ran (ADR 0051) and records every
   * miss: on in the tests and the browser suites, off in production (nothing is wrapped then).
   */
  PAGE_CACHE_AUDIT: flag.default(false),
  /** Where the audit appends its findings as JSON lines (the browser suites read it at the end). */
  PAGE_CACHE_AUDIT_FILE: z.string().optional(),
  /** Express's "trust proxy": which hops may set X-Forwarded-For (client IPs for rate limits). */
  TRUST_PROXY: z
    .string()
    .default("loopback")
    .transform((v): boolean | number | string => (v === "true" ? true : v === "false" ? false : /^\d+$/.test(v) ? Number(v) : v)),
  /** The operators' metrics (issue 33): served on this port only, never on the site's; unset, none are kept. */
  METRICS_PORT: z.coerce
    .number({ error: "must be a port number" })
    .int("must be a whole number")
    .min(1, "must be 1 to 65535")
    .max(65535, "must be 1 to 65535")
    .optional(),
  /** Where the metrics port listens: loopback unless a scraper on another machine needs it (then set METRICS_TOKEN). */
  METRICS_HOST: z.string().min(1).default("127.0.0.1"),
  /** When set, a scrape must send it as `Authorization: Bearer …`. */
  METRICS_TOKEN: z.string().min(16, "must be at least 16 characters").optional(),
});

export type Env = Omit<z.infer<typeof envSchema>, "AUTH_SECRET" | "BASE_URL" | "BACKUP_DIR"> & {
  AUTH_SECRET: string;
  BASE_URL: string;
  /** "sqlite" unless DATABASE_URL points at PostgreSQL. */
  DATABASE_ENGINE: "sqlite" | "postgres";
  SQLITE_PATH: string;
  BACKUP_DIR: string;
};

export class EnvError extends Error {
  override name = "EnvError";
}

/**
 * Reads and checks the environment once at start. A bad value stops the process with a message that
 * names the variable; the auth secret is generated on first start and kept in DATA_DIR so that a
 * new machine needs no set-up and sessions survive restarts.
 */
export function loadEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ""));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new EnvError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const env = parsed.data;
  const dataDir = path.resolve(env.DATA_DIR);
  fs.mkdirSync(dataDir, { recursive: true });
  const engine = env.DATABASE_URL?.startsWith("postgres") ? "postgres" : "sqlite";
  const sqlitePath =
    env.DATABASE_URL && engine === "sqlite" ? path.resolve(env.DATABASE_URL.replace(/^(file:|sqlite:)(\/\/)?/, "")) : path.join(dataDir, "site.db");
  return {
    ...env,
    DATA_DIR: dataDir,
    DATABASE_ENGINE: engine,
    SQLITE_PATH: sqlitePath,
    BACKUP_DIR: path.resolve(env.BACKUP_DIR ?? path.join(dataDir, "backups")),
    BASE_URL: env.BASE_URL ?? `http://localhost:${env.PORT}`,
    AUTH_SECRET: env.AUTH_SECRET ?? readOrCreateSecret(dataDir),
  };
}

function readOrCreateSecret(dataDir: string): string {
  const file = path.join(dataDir, "auth-secret");
  try {
    const existing = fs.readFileSync(file, "utf8").trim();
    if (existing.length >= 32) return existing;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  const secret = randomBytes(32).toString("base64url");
  // wx: if another process created it meanwhile, keep theirs.
  try {
    fs.writeFileSync(file, secret + "\n", { mode: 0o600, flag: "wx" });
    return secret;
  } catch {
    return fs.readFileSync(file, "utf8").trim();
  }
}
