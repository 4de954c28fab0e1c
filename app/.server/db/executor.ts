import type { Db } from "./connect";

/**
 * What runs a query: the database or a transaction opened on it. Repositories take one first
 * (STYLE habit 3) and cannot open a transaction with it; that is the service's (ADR 0053). `Db` is
 * the database itself, for the code that opens transactions.
 */
export type Executor = Pick<Db, "selectFrom" | "selectNoFrom" | "insertInto" | "updateTable" | "deleteFrom" | "getExecutor">;
