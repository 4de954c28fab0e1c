// Roles and advisors from the command line (PRODUCT.md §1: the first admin is made here).
//   npm run admin -- grant <email> <moderator|admin>
//   npm run admin -- revoke <email>
//   npm run admin -- advisor grant <email> <monk|warrior> <specialty…>
//   npm run admin -- advisor revoke <email>
import { createDatabase } from "../app/.server/db/connect";
import { grantAdvisor, revokeAdvisor } from "../app/.server/domain/council/council-service";
import { setRole } from "../app/.server/domain/accounts/roles";
import { loadEnv } from "../app/.server/env";
import { migrateToLatest } from "../database/migrate";

const usage = [
  "usage: npm run admin -- grant <email> <moderator|admin>",
  "       npm run admin -- revoke <email>",
  "       npm run admin -- advisor grant <email> <monk|warrior> <specialty…>",
  "       npm run admin -- advisor revoke <email>",
].join("\n");
const args = process.argv.slice(2);

type Command =
  | { kind: "role"; email: string; role: "member" | "moderator" | "admin" }
  | { kind: "advisor-grant"; email: string; path: "monk" | "warrior"; specialty: string }
  | { kind: "advisor-revoke"; email: string };

function parse(): Command | null {
  const [a, b, c, ...rest] = args;
  if (a === "grant" && b && (c === "moderator" || c === "admin")) return { kind: "role", email: b, role: c };
  if (a === "revoke" && b && !c) return { kind: "role", email: b, role: "member" };
  if (a === "advisor" && b === "grant" && c && (rest[0] === "monk" || rest[0] === "warrior") && rest.slice(1).join(" ").trim().length >= 3) {
    return { kind: "advisor-grant", email: c, path: rest[0], specialty: rest.slice(1).join(" ").trim().slice(0, 80) };
  }
  if (a === "advisor" && b === "revoke" && c) return { kind: "advisor-revoke", email: c };
  return null;
}

const command = parse();
if (!command) {
  console.error(usage);
  process.exit(2);
}
const env = loadEnv();
const db = createDatabase(
  env.DATABASE_ENGINE === "postgres"
    ? { engine: "postgres", url: env.DATABASE_URL, preparedStatements: env.DATABASE_PREPARED_STATEMENTS }
    : { engine: "sqlite", sqlitePath: env.SQLITE_PATH },
);
try {
  await migrateToLatest(db);
  let done: boolean;
  let message: string;
  if (command.kind === "role") {
    done = await setRole(db, command.email, command.role);
    message = `${command.email} is now ${command.role === "member" ? "a member without extra roles" : `a ${command.role}`}.`;
  } else if (command.kind === "advisor-grant") {
    done = await grantAdvisor(db, command.email, command.path, command.specialty);
    message = `${command.email} is now a verified ${command.path} advisor (${command.specialty}).`;
  } else {
    done = await revokeAdvisor(db, command.email);
    message = `${command.email} is no longer an advisor.`;
  }
  if (!done) {
    console.error(`No member (or no advisor) has the email address ${command.email}.`);
    process.exitCode = 1;
  } else {
    console.log(message);
  }
} finally {
  await db.destroy();
}
