import fs from "node:fs";
import path from "node:path";
import { expect } from "@playwright/test";
import { withSiteDatabase } from "./database";

/**
 * The kinds of mail queued for an address in the server's outbox, read from the server's database
 * (SQLite or PostgreSQL, as support/database.ts opens it): the browser cannot see a mail that the
 * outbox worker has not sent yet.
 */
export async function queuedMailKinds(email: string): Promise<string[]> {
  const rows = await withSiteDatabase((db) => db.selectFrom("mail_outbox").select("kind").where("to_address", "=", email).orderBy("id").execute());
  return rows.map((r) => r.kind);
}

/**
 * The newest mail the e2e server's outbox worker has written for `email` (an .eml file in the data
 * folder), as text with quoted-printable soft line breaks undone; waits for the worker to send it
 * (and, given `containing`, for a mail holding that text).
 */
export async function mailTo(email: string, containing = "") {
  const outbox = path.join(process.env.E2E_DATA_DIR!, "outbox");
  let found: string | undefined;
  await expect
    .poll(() => {
      const files = fs.existsSync(outbox) ? fs.readdirSync(outbox).sort().reverse() : [];
      found = files
        .map((f) => fs.readFileSync(path.join(outbox, f), "utf8"))
        .find(
          (m) =>
            m.includes(email) &&
            m
              .replace(/=\r?\n/g, "")
              .replace(/=3D/g, "=")
              .includes(containing),
        );
      return found !== undefined;
    })
    .toBe(true);
  return found!.replace(/=\r?\n/g, "").replace(/=3D/g, "=");
}
