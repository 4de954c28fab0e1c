import fs from "node:fs";
import { actAs, createMember, expect, expectNoSeriousViolations, gotoHydrated, joinAs, newMember, test } from "./support/fixtures";
import { makeAdmin } from "./support/database";
import { queuedMailKinds } from "./support/outbox";

/*
 * Issue 12's events in the browser: an admin creates an event through the form; one member RSVPs
 * and downloads its calendar file; a second takes the last place; a third lands on the waitlist and
 * moves up when the first cancels, with a mail queued for them.
 */

const day = (daysAhead: number) => new Date(Date.now() + daysAhead * 86_400_000).toISOString().slice(0, 10);

test("an event fills, waitlists and moves up; members download its calendar file", async ({ page }) => {
  // Four members and a dozen page loads on a machine the other suites share.
  test.setTimeout(120_000);
  const title = `Sunrise sit ${Math.random().toString(36).slice(2, 8)}`;
  const host = await joinAs(page, "Hattie Host");
  await makeAdmin(host.email);
  const [first, second, third] = [await joinAs(page, "Fern First"), await joinAs(page, "Sam Second"), await joinAs(page, "Tia Third")];

  await actAs(page, host);
  await gotoHydrated(page, "/events");
  await page.getByRole("link", { name: "Create Event" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Create Event");
  await page.getByLabel("Title").fill(title);
  await page.getByLabel("Description").fill("Twenty quiet minutes as the sun comes up.");
  await page.getByLabel("Path").selectOption("monk");
  await page.getByLabel("Starts").fill(`${day(20)}T06:30`);
  await page.getByLabel("Ends").fill(`${day(20)}T07:15`);
  await page.getByLabel("Time zone").selectOption("Europe/Berlin");
  await page.getByLabel("Online link").fill("javascript:alert(1)");
  await page.getByLabel("Place").fill("Tempelhofer Feld, north entrance");
  await page.getByLabel("Capacity").fill("2");
  await page.getByRole("button", { name: "Create Event" }).click();
  await expect(page.getByText("Enter a link starting with http:// or https://")).toBeVisible();
  await page.getByLabel("Online link").fill("");
  await page.getByRole("button", { name: "Create Event" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
  const path = new URL(page.url()).pathname;
  expect(path).toMatch(/^\/events\/\d+$/);
  await expect(page.getByTestId("places")).toContainText("2 places left of 2");

  // The first member goes, and takes the calendar file home.
  await actAs(page, first);
  await gotoHydrated(page, path);
  await page.getByRole("button", { name: "Going", exact: true }).click();
  await expect(page.getByText("You are going.")).toBeVisible();
  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: "Download calendar file (.ics)" }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^event-\d+\.ics$/);
  const ics = fs.readFileSync((await file.path())!, "utf8");
  expect(ics).toMatch(/^BEGIN:VCALENDAR\r\n/);
  expect(ics).toContain("BEGIN:VEVENT");
  expect(ics).toContain(`UID:event-${path.split("/").pop()}@`);
  expect(ics).toContain(`SUMMARY:${title}`);
  expect(ics).toMatch(new RegExp(`DTSTART:${day(20).replaceAll("-", "")}T0[45]3000Z`));

  // The second takes the last place.
  await actAs(page, second);
  await gotoHydrated(page, path);
  await page.getByRole("button", { name: "Going", exact: true }).click();
  await expect(page.getByText("You are going.")).toBeVisible();
  await expect(page.getByTestId("places")).toContainText("Full (2 places), waitlist open");

  // The third is offered the waitlist.
  await actAs(page, third);
  await gotoHydrated(page, path);
  await expect(page.getByRole("button", { name: "Going", exact: true })).toHaveCount(0);
  await page.getByRole("button", { name: "Join the waitlist" }).click();
  await expect(page.getByText("You are number 1 on the waitlist.")).toBeVisible();
  await expectNoSeriousViolations(page);

  // The first cancels; the third moves up and is mailed.
  await actAs(page, first);
  await gotoHydrated(page, path);
  await page.getByRole("button", { name: "Not going" }).click();
  await expect(page.getByText("You are going.")).toHaveCount(0);
  await expect(page.getByRole("list", { name: "Members going" })).not.toContainText(first.name);

  await actAs(page, third);
  await gotoHydrated(page, path);
  await expect(page.getByText("You are going.")).toBeVisible();
  await expect(page.getByRole("list", { name: "Members going" })).toContainText(third.name);
  expect(await queuedMailKinds(third.email)).toEqual(["event-promoted"]);
  expect(await queuedMailKinds(second.email)).toEqual([]);
});

test("signed out, the list shows upcoming events with their hosts and the event asks to sign in", async ({ page }) => {
  await gotoHydrated(page, "/events");
  const upcoming = page.getByRole("region", { name: "Upcoming events" });
  await expect(upcoming.getByRole("article").first()).toBeVisible();
  await expect(upcoming.getByText("Saturday trail run at a talking pace")).toBeVisible();
  await expect(upcoming.locator('[data-member="marcus"]').first()).toContainText("Marcus Reyes");
  await expectNoSeriousViolations(page);
  await upcoming.getByRole("link", { name: "Saturday trail run at a talking pace" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Saturday trail run at a talking pace");
  await expect(page.getByRole("link", { name: "Sign in to RSVP" })).toBeVisible();
  await expectNoSeriousViolations(page);
});

test("a member who is not an advisor is told who may create events", async ({ page }) => {
  await createMember(page.request, newMember("Nora Member"));
  const response = await page.goto("/events/new");
  expect(response?.status()).toBe(403);
  await expect(page.getByText("Only advisors and admins can create events.")).toBeVisible();
});
