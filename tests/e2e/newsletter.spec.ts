import fs from "node:fs";
import path from "node:path";
import { expect, gotoHydrated, test, uniqueEmail } from "./support/fixtures";

/** The e2e server has no SMTP_URL, so its mails are .eml files in DATA_DIR/outbox (ADR 0007). */
function outboxMailTo(address: string) {
  const outbox = path.join(process.env.E2E_DATA_DIR!, "outbox");
  if (!fs.existsSync(outbox)) return undefined;
  for (const file of fs.readdirSync(outbox)) {
    // Quoted-printable: undo soft line breaks and the encoded "=".
    const text = fs
      .readFileSync(path.join(outbox, file), "utf8")
      .replace(/=\r?\n/g, "")
      .replace(/=3D/g, "=");
    if (new RegExp(`^To: ${address.replace(/[.+]/g, "\\$&")}$`, "m").test(text)) return text;
  }
  return undefined;
}

test("a reader subscribes from the footer and confirms from the mail with JavaScript on", async ({ page }) => {
  const email = uniqueEmail("newsletter");
  await gotoHydrated(page, "/");
  const footer = page.getByRole("contentinfo");
  await footer.getByLabel("Your email", { exact: true }).fill(email);
  await footer.getByRole("button", { name: "Begin Your Journey", exact: true }).click();
  await expect(footer.getByRole("status")).toHaveText("Thank you! Check your inbox for a link to confirm your subscription.");

  let mail: string | undefined;
  await expect.poll(() => (mail = outboxMailTo(email))).toBeTruthy();
  const link = mail!.match(/http:\/\/[^\s]+\/newsletter\/confirm\?token=[A-Za-z0-9_-]+/)![0];

  await gotoHydrated(page, new URL(link).pathname + new URL(link).search);
  const main = page.getByRole("main");
  await expect(main.getByText(email)).toBeVisible();
  await main.getByRole("button", { name: "Confirm subscription", exact: true }).click();
  await expect(main.getByText("You are subscribed")).toBeVisible();
  await expect(main.getByText("You are unsubscribed")).toHaveCount(0);

  // Opened again, the link shows the stored state: confirmed, not unsubscribed.
  await page.reload();
  await expect(main.getByText("You are subscribed")).toBeVisible();
  await expect(main.getByRole("button", { name: "Confirm subscription" })).toHaveCount(0);
});
