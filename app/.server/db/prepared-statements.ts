import { randomBytes } from "node:crypto";
import pg from "pg";

/**
 * PostgreSQL statements sent as named prepared statements (ADR 0079). Unnamed, every statement is
 * parsed and planned again on each execution: under the mix PostgreSQL spent more time planning
 * than executing, on the cores the site runs on. Named, a connection parses a statement once and
 * binds it from then on with the values given (PostgreSQL's plan cache picks a generic plan only
 * when it costs no more than the custom ones); the text is not sent again.
 *
 * Names are per process and per SQL text (Kysely compiles a query to the same text every time; the
 * values are parameters, so a statement must not write a changing value into its text), so a name
 * means one text on every connection. A connection prepares a name the first time it runs it. Each
 * process's names begin with a random part: behind a pooler that hands one server connection to
 * several processes without keeping their statements apart, a name meets "does not exist" rather
 * than another process's statement of the same name.
 */

/** Kysely's queries: what is worth a name. SET, BEGIN, LISTEN, DDL and the like are sent as they are. */
const STATEMENT = /^\s*(select|insert|update|delete|with)\b/i;

/**
 * The statement's kept plan no longer fits a table whose columns changed (another process ran a
 * migration): "cached plan must not change result type". Known by its SQLSTATE and PostgreSQL's
 * routine, not its message, which the server's language may translate.
 */
function planOutdated(error: unknown) {
  const fields = error as { code?: unknown; routine?: unknown } | null;
  return fields?.code === "0A000" && fields.routine === "RevalidateCachedQuery";
}

export class StatementNames {
  #names = new Map<string, string>();
  #generation = 0;
  readonly #process = randomBytes(4).toString("hex");

  /**
   * At most `max` texts get a name; later ones are sent unnamed. A connection keeps every statement
   * it prepared, and its plans, until it closes; the site's queries are a few hundred texts (lists
   * of ids make one text per length), so the bound is only a guard.
   */
  constructor(readonly max = 500) {}

  nameOf(text: string): string | undefined {
    let name = this.#names.get(text);
    if (name === undefined && this.#names.size < this.max) {
      name = `ipos_${this.#process}_${this.#generation}_${this.#names.size}`;
      this.#names.set(text, name);
    }
    return name;
  }

  /**
   * Every text gets a new name on its next use, which each connection prepares afresh against the
   * tables as they are now. Statements prepared under the old names stay on their connections
   * unused until those close.
   */
  renameAll() {
    this.#names.clear();
    this.#generation++;
  }

  /** Which naming is in force: a statement that failed under an older one needs no renaming again. */
  get generation() {
    return this.#generation;
  }
}

type Query = (this: pg.Client, ...args: unknown[]) => unknown;

/**
 * A pg.Client class for the pool (its `Client` option) that sends Kysely's statements by name. A
 * statement whose kept plan a migration outdated is renamed everywhere and, outside a transaction,
 * sent once more under its new name (it had not run); inside one the error stands, as the
 * transaction is already aborted, and the member's next request finds the new names.
 */
export function preparingClient(): typeof pg.Client {
  const names = new StatementNames();
  class PreparingClient extends pg.Client {}
  const plain = pg.Client.prototype.query as unknown as Query;
  const query: Query = function (this: pg.Client, ...args) {
    const [text, values] = args;
    // Only the (text, values) form Kysely uses; a config object, a callback or a stream goes as it came.
    if (typeof text !== "string" || args.length > 2 || (values !== undefined && !Array.isArray(values))) return plain.apply(this, args);
    const name = STATEMENT.test(text) ? names.nameOf(text) : undefined;
    if (name === undefined) return plain.apply(this, args);
    const generation = names.generation;
    const sent = plain.call(this, { name, text, values }) as Promise<pg.QueryResult>;
    return sent.catch((error: unknown) => {
      if (!planOutdated(error)) throw error;
      // Every connection with a statement in flight meets the same migration: rename once.
      if (names.generation === generation) names.renameAll();
      // The server's own word, from its last ReadyForQuery: "I" is outside any transaction ("T"
      // inside one, "E" inside a failed one, whichever of the error and that message came first).
      if (this.getTransactionStatus() !== "I") throw error;
      const renamed = names.nameOf(text);
      return renamed === undefined ? plain.call(this, text, values) : plain.call(this, { name: renamed, text, values });
    });
  };
  PreparingClient.prototype.query = query as unknown as pg.Client["query"];
  return PreparingClient;
}
