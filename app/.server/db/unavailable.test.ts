import { describe, expect, it } from "vitest";
import { describeDatabaseUrl, isDatabaseUnavailable, unavailableReason } from "./unavailable";

const withCode = (code: string, message = "x") => Object.assign(new Error(message), { code });
const sqlite = (errcode: number, message: string) => Object.assign(new Error(message), { code: "ERR_SQLITE_ERROR", errcode });

describe("isDatabaseUnavailable", () => {
  it("says yes to connection failures on either engine, also when wrapped", () => {
    for (const error of [
      withCode("ECONNREFUSED"),
      withCode("ECONNRESET"),
      withCode("57P01", "terminating connection due to administrator command"),
      withCode("57P03", "the database system is starting up"),
      withCode("3D000", 'database "ipos" does not exist'),
      withCode("53300", "too many connections for database"),
      withCode("08006", "connection failure"),
      new Error("Connection terminated unexpectedly"),
      new Error("timeout exceeded when trying to connect"),
      sqlite(5, "database is locked"),
      sqlite(517, "database is locked"),
      sqlite(14, "unable to open database file"),
      new Error("Migration (unknown) failed: connect ECONNREFUSED", { cause: withCode("ECONNREFUSED") }),
      Object.assign(new AggregateError([withCode("ECONNREFUSED"), withCode("ECONNREFUSED")]), { message: "" }),
    ]) {
      expect(isDatabaseUnavailable(error), String(error)).toBe(true);
    }
  });

  it("says no to bugs and to constraint violations", () => {
    for (const error of [
      new Error("boom"),
      new TypeError("cannot read properties of undefined"),
      withCode("23505", "duplicate key value violates unique constraint"),
      withCode("42P01", 'relation "member" does not exist'),
      sqlite(19, "UNIQUE constraint failed: member.email"),
      sqlite(1, "no such table: member"),
      "a string",
      null,
      undefined,
    ]) {
      expect(isDatabaseUnavailable(error), String(error)).toBe(false);
    }
  });
});

describe("log lines", () => {
  it("names the reason by its code, through wrappers", () => {
    expect(unavailableReason(new Error("Migration failed", { cause: withCode("ECONNREFUSED") }))).toBe("ECONNREFUSED");
    expect(unavailableReason(sqlite(5, "database is locked"))).toBe("database is locked");
  });

  it("never shows the password of a connection string", () => {
    expect(describeDatabaseUrl("postgres://ipos:s3cret@db.internal:5432/ipos?sslmode=require")).toBe("postgres://db.internal:5432/ipos");
  });
});
