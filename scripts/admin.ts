// `npm run admin -- grant <email> <moderator|admin>` and `npm run admin -- revoke <email>`:
// the first admin is made from the command line (PRODUCT.md §1).
import { createDatabase } from "../app/.server/db/connect";
import { setRole } from "../app/.server/domain/accounts/roles";
import { loadEnv } from "../app/.server/env";
import { migrateToLatest } from "../database/migrate";

const usage = "usage: npm run admin -- grant <email> <moderator|admin>\n       npm run admin -- revoke <email>";
const [command, email, role] = process.argv.slice(2);
if (!email || (command === "grant" && role !== "moderator" && role !== "admin") || (command !== "grant" && command !== "revoke")) {
  console.error(usage);
  process.exit(2);
}
const env = loadEnv();
const db = createDatabase(
  env.DATABASE_ENGINE === "postgres" ? { engine: "postgres", url: env.DATABASE_URL } : { engine: "sqlite", sqlitePath: env.SQLITE_PATH },
);
try {
  await migrateToLatest(db);
  const newRole = command === "grant" ? (role as "moderator" | "admin") : "member";
  if (!(await setRole(db, email, newRole))) {
    console.error(`No member has the email address ${email}.`);
    process.exitCode = 1;
  } else {
    console.log(`${email} is now ${newRole === "member" ? "a member without extra roles" : `a ${newRole}`}.`);
  }
} finally {
  await db.destroy();
}
