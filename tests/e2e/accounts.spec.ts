import type { Page } from "@playwright/test";
import {
  countPosts,
  createMember,
  delayPosts,
  expect,
  gotoHydrated,
  newMember,
  PASSWORD,
  SESSION_COOKIE,
  submitSignIn,
  test,
  uniqueEmail,
  waitForHydration,
} from "./support/fixtures";

/*
 * Failed sign-ins are rate limited per IP (10 per 15 minutes) and every test comes from 127.0.0.1.
 * This file makes exactly two failed sign-in submissions that reach the server (one wrong password,
 * one unknown email); every other sign-in either succeeds or is stopped by validation first.
 */

/** Under the password field before any submit (issue 26, item 9). */
const PASSWORD_HINT = "At least 8 characters, with at least one uppercase letter and one number.";
const JOIN_MESSAGES = {
  fullName: "Full name must be at least 2 characters",
  email: "Please enter a valid email address",
  passwordLength: "Password must be at least 8 characters",
  passwordUppercase: "Password must contain at least one uppercase letter",
  passwordNumber: "Password must contain at least one number",
  confirmPassword: "Passwords do not match",
  bio: "Bio cannot exceed 250 characters",
  terms: "You must accept the terms and conditions",
} as const;
const ALL_JOIN_MESSAGES = Object.values(JOIN_MESSAGES);

interface JoinInput {
  fullName: string;
  email: string;
  password: string;
  confirmPassword: string;
  bio: string;
  terms: boolean;
}

function validJoin(overrides: Partial<JoinInput> = {}): JoinInput {
  return {
    fullName: "Ada Lovelace",
    email: uniqueEmail(),
    password: PASSWORD,
    confirmPassword: PASSWORD,
    bio: "",
    terms: true,
    ...overrides,
  };
}

function joinForm(page: Page) {
  const main = page.getByRole("main");
  return {
    fullName: main.getByLabel("Full Name", { exact: true }),
    email: main.getByLabel("Email", { exact: true }),
    password: main.getByLabel("Password", { exact: true }),
    confirmPassword: main.getByLabel("Confirm Password", { exact: true }),
    bio: main.getByLabel("Bio (optional)", { exact: true }),
    terms: main.getByRole("checkbox", { name: "I agree to the Terms of Service and Privacy Policy" }),
    submit: main.getByRole("button", { name: "Join the Movement", exact: true }),
    interest: (name: string) => main.getByRole("group", { name: "Your Primary Interests" }).getByRole("checkbox", { name }),
  };
}

async function fillJoin(page: Page, input: JoinInput) {
  const form = joinForm(page);
  await form.fullName.fill(input.fullName);
  await form.email.fill(input.email);
  await form.password.fill(input.password);
  await form.confirmPassword.fill(input.confirmPassword);
  await form.bio.fill(input.bio);
  await form.terms.setChecked(input.terms);
}

async function expectNoJoinMessages(page: Page, except: string[] = []) {
  for (const message of ALL_JOIN_MESSAGES) {
    if (except.includes(message)) continue;
    await expect(page.getByText(message, { exact: true })).toHaveCount(0);
  }
}

test.describe("join: validation", () => {
  const cases: { title: string; input: Partial<JoinInput>; field: keyof ReturnType<typeof joinForm>; message: string }[] = [
    { title: "a one-letter full name", input: { fullName: "A" }, field: "fullName", message: JOIN_MESSAGES.fullName },
    { title: "an invalid email", input: { email: "not-an-email" }, field: "email", message: JOIN_MESSAGES.email },
    {
      title: "a password under 8 characters",
      input: { password: "Short1A", confirmPassword: "Short1A" },
      field: "password",
      message: JOIN_MESSAGES.passwordLength,
    },
    {
      title: "a password without an uppercase letter",
      input: { password: "lowercase42", confirmPassword: "lowercase42" },
      field: "password",
      message: JOIN_MESSAGES.passwordUppercase,
    },
    {
      title: "a password without a digit",
      input: { password: "NoDigitsHere", confirmPassword: "NoDigitsHere" },
      field: "password",
      message: JOIN_MESSAGES.passwordNumber,
    },
    {
      title: "a confirmation that differs",
      input: { confirmPassword: `${PASSWORD}x` },
      field: "confirmPassword",
      message: JOIN_MESSAGES.confirmPassword,
    },
    { title: "a bio of 251 characters", input: { bio: "b".repeat(251) }, field: "bio", message: JOIN_MESSAGES.bio },
    { title: "terms not accepted", input: { terms: false }, field: "terms", message: JOIN_MESSAGES.terms },
  ];

  for (const c of cases) {
    test(`on submit: ${c.title} → '${c.message}'`, async ({ page }) => {
      await gotoHydrated(page, "/join");
      const posts = countPosts(page, "/join");
      await fillJoin(page, validJoin(c.input));
      const form = joinForm(page);
      await form.submit.click();

      const field = form[c.field] as ReturnType<typeof joinForm>["fullName"];
      await expect(page.getByText(c.message, { exact: true })).toBeVisible();
      await expect(field).toHaveAttribute("aria-invalid", "true");
      // The password's rules are its hint, read before the message (issue 26, item 9).
      await expect(field).toHaveAccessibleDescription(c.field === "password" ? `${PASSWORD_HINT} ${c.message}` : c.message);
      await expect(field).toBeFocused();
      await expectNoJoinMessages(page, [c.message]);
      // Stopped in the browser: nothing was posted, the form stays.
      expect(posts.count).toBe(0);
      await expect(page.getByRole("heading", { name: "Create Your Account" })).toBeVisible();
    });
  }

  test("a bio of exactly 250 characters is accepted", async ({ page }) => {
    await gotoHydrated(page, "/join");
    await fillJoin(page, validJoin({ bio: "b".repeat(250) }));
    await joinForm(page).submit.click();
    await expect(page.getByRole("heading", { name: "Registration Successful!" })).toBeVisible();
  });

  test("an empty form shows every applicable message at once", async ({ page }) => {
    await gotoHydrated(page, "/join");
    await joinForm(page).submit.click();
    for (const message of [JOIN_MESSAGES.fullName, JOIN_MESSAGES.email, JOIN_MESSAGES.passwordLength, JOIN_MESSAGES.terms]) {
      await expect(page.getByText(message, { exact: true })).toBeVisible();
    }
    await expect(joinForm(page).fullName).toBeFocused();
  });

  test("validation waits for the first submit, then re-runs on every change", async ({ page }) => {
    await gotoHydrated(page, "/join");
    const form = joinForm(page);
    // Before any submit, typing something invalid shows nothing.
    await form.fullName.fill("A");
    await form.email.fill("nope");
    await expect(page.getByText(JOIN_MESSAGES.fullName, { exact: true })).toHaveCount(0);
    await expect(page.getByText(JOIN_MESSAGES.email, { exact: true })).toHaveCount(0);

    await form.submit.click();
    await expect(page.getByText(JOIN_MESSAGES.fullName, { exact: true })).toBeVisible();
    await expect(page.getByText(JOIN_MESSAGES.email, { exact: true })).toBeVisible();
    await expect(page.getByText(JOIN_MESSAGES.terms, { exact: true })).toBeVisible();

    // Each fix clears its message without submitting again.
    await form.fullName.fill("Ada Lovelace");
    await expect(page.getByText(JOIN_MESSAGES.fullName, { exact: true })).toHaveCount(0);
    await expect(form.fullName).not.toHaveAttribute("aria-invalid", "true");
    await form.email.fill(uniqueEmail());
    await expect(page.getByText(JOIN_MESSAGES.email, { exact: true })).toHaveCount(0);

    // And each change is checked again: every rule the password fails, listed in the browser too.
    await form.password.fill("abc");
    await expect(page.getByText(JOIN_MESSAGES.passwordLength, { exact: true })).toBeVisible();
    await expect(page.getByText(JOIN_MESSAGES.passwordUppercase, { exact: true })).toBeVisible();
    await expect(page.getByText(JOIN_MESSAGES.passwordNumber, { exact: true })).toBeVisible();
    await form.password.fill("abcdefgh1");
    await expect(page.getByText(JOIN_MESSAGES.passwordUppercase, { exact: true })).toBeVisible();
    await expect(page.getByText(JOIN_MESSAGES.passwordLength, { exact: true })).toHaveCount(0);
    await form.password.fill("Abcdefghi");
    await expect(page.getByText(JOIN_MESSAGES.passwordNumber, { exact: true })).toBeVisible();
    await form.password.fill(PASSWORD);
    await expect(page.getByText(JOIN_MESSAGES.passwordNumber, { exact: true })).toHaveCount(0);
    await expect(page.getByText(JOIN_MESSAGES.confirmPassword, { exact: true })).toBeVisible();
    await form.confirmPassword.fill(PASSWORD);
    await expect(page.getByText(JOIN_MESSAGES.confirmPassword, { exact: true })).toHaveCount(0);

    await form.bio.fill("b".repeat(251));
    await expect(page.getByText(JOIN_MESSAGES.bio, { exact: true })).toBeVisible();
    await form.bio.fill("Counting breaths.");
    await expect(page.getByText(JOIN_MESSAGES.bio, { exact: true })).toHaveCount(0);

    await form.terms.check();
    await expect(page.getByText(JOIN_MESSAGES.terms, { exact: true })).toHaveCount(0);
    await form.terms.uncheck();
    await expect(page.getByText(JOIN_MESSAGES.terms, { exact: true })).toBeVisible();
    await form.terms.check();
    await expectNoJoinMessages(page);
  });
});

test.describe("join: a missing value", () => {
  // Seed §5: "the validation default messages apply, for example 'Required' when a value is missing".
  // A browser always sends every named field, so the field is taken out of the form to get there.
  test("a field left out of the submission gets 'Required'", async ({ page }) => {
    await gotoHydrated(page, "/join");
    await fillJoin(page, validJoin());
    await joinForm(page).fullName.evaluate((el) => el.removeAttribute("name"));
    await joinForm(page).submit.click();
    await expect(joinForm(page).fullName).toHaveAccessibleDescription("Required");
    await expect(page.getByText("Required", { exact: true })).toBeVisible();
  });
});

test.describe("join: success", () => {
  test("Processing... while busy, then the success card, Continue to Dashboard and the signed-in nav", async ({ page }) => {
    await gotoHydrated(page, "/join");
    const form = joinForm(page);
    await fillJoin(page, validJoin({ fullName: "Ada Lovelace", bio: "Counting breaths." }));
    await form.interest("Meditation & Inner Peace").check();
    await form.interest("Creative Expression").check();

    await delayPosts(page, "/join");
    await form.submit.click();
    const busy = page.getByRole("main").getByRole("button", { name: "Processing...", exact: true });
    await expect(busy).toBeVisible();
    await expect(busy).toBeDisabled();
    await expect(page.getByRole("button", { name: "Join the Movement" })).toHaveCount(0);

    // The card is replaced by the success card.
    await expect(page.getByRole("heading", { name: "Registration Successful!", exact: true })).toBeVisible();
    await expect(page.getByText("Thank you for joining the community. Your journey begins now.", { exact: true })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Create Your Account" })).toHaveCount(0);
    await expect(form.fullName).toHaveCount(0);

    // Joining signs the new member in.
    const nav = page.getByRole("navigation", { name: "Main" });
    const account = nav.getByLabel("Account menu for Ada Lovelace", { exact: true });
    await expect(account).toBeVisible();
    await expect(account).toHaveText("AL");
    await expect(nav.getByRole("link", { name: "Sign In", exact: true })).toHaveCount(0);
    await expect(nav.getByRole("link", { name: "Join the Path", exact: true })).toHaveCount(0);
    await expect(nav.getByText("IN", { exact: true })).toHaveCount(0);

    const cont = page.getByRole("link", { name: "Continue to Dashboard", exact: true });
    await expect(cont).toHaveAttribute("href", "/dashboard");
    await cont.click();
    await expect(page).toHaveURL("/dashboard");
    const main = page.getByRole("main");
    await expect(main.getByRole("heading", { level: 1 })).toHaveText("Welcome, Ada Lovelace");
    await expect(main.getByText("Initiate", { exact: true })).toBeVisible();
    await expect(main.getByText("0 XP", { exact: true })).toBeVisible();
    await expect(main.getByText(/Acolyte/)).toBeVisible();
    const progress = main.getByRole("progressbar", { name: "Progress to Acolyte" });
    await expect(progress).toHaveAttribute("aria-valuenow", "0");
  });

  test("a taken email is refused under Email", async ({ page, request }) => {
    const taken = await createMember(request, newMember("Grace Hopper"));
    await gotoHydrated(page, "/join");
    await fillJoin(page, validJoin({ fullName: "Grace Hopper", email: taken.email }));
    await joinForm(page).submit.click();
    const message = "An account with this email already exists";
    await expect(page.getByText(message, { exact: true })).toBeVisible();
    await expect(joinForm(page).email).toHaveAccessibleDescription(message);
    await expect(joinForm(page).email).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByRole("heading", { name: "Registration Successful!" })).toHaveCount(0);
    // Still signed out.
    await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Sign In", exact: true })).toBeVisible();
  });

  test("a demo member's email is taken too", async ({ page }) => {
    await gotoHydrated(page, "/join");
    await fillJoin(page, validJoin({ email: "mei@demo.innerpeace.invalid" }));
    await joinForm(page).submit.click();
    await expect(joinForm(page).email).toHaveAccessibleDescription("An account with this email already exists");
  });

  test("a sixth join in an hour from one address is refused in the form with the wait", async ({ page, request }) => {
    // PRODUCT.md §7: 5 joins an hour per IP. `request` shares this test's address (fixtures.ts).
    for (let i = 0; i < 5; i++) await createMember(request, newMember(`Joiner ${i}`));
    await gotoHydrated(page, "/join");
    const input = validJoin({ fullName: "Sixth Joiner" });
    await fillJoin(page, input);
    await joinForm(page).submit.click();
    await expect(page.getByRole("alert")).toHaveText("Too many attempts. Try again in 60 minutes.");
    await expect(page.getByRole("heading", { name: "Registration Successful!" })).toHaveCount(0);
    await expect(joinForm(page).fullName).toHaveValue("Sixth Joiner");
    await expect(joinForm(page).email).toHaveValue(input.email);
    await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Sign In", exact: true })).toBeVisible();
  });
});

test.describe("account menu", () => {
  test("shows the initials, opens Dashboard and signs out", async ({ page }) => {
    const member = await createMember(page.request, newMember("Ada Lovelace"));
    await gotoHydrated(page, "/");
    const nav = page.getByRole("navigation", { name: "Main" });
    const account = nav.getByLabel(`Account menu for ${member.name}`, { exact: true });
    await expect(account).toHaveText("AL");
    await expect(nav.getByRole("link", { name: "Sign In", exact: true })).toHaveCount(0);
    await expect(nav.getByRole("link", { name: "Join the Path", exact: true })).toHaveCount(0);

    const dashboard = nav.getByRole("link", { name: "Dashboard", exact: true });
    const signOut = nav.getByRole("button", { name: "Sign Out", exact: true });
    await expect(dashboard).toBeHidden();
    await account.click();
    await expect(dashboard).toBeVisible();
    await expect(signOut).toBeVisible();
    await dashboard.click();
    await expect(page).toHaveURL("/dashboard");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Welcome, ${member.name}`);
    // The menu closes after navigating.
    await expect(dashboard).toBeHidden();

    // A draft this browser kept for the member (issue 32) goes with the session.
    await page.evaluate(() => localStorage.setItem("draft:ada-lovelace:reply:1", JSON.stringify({ body: "Half a thought", at: new Date().toISOString() })));
    await account.click();
    await signOut.click();
    await expect(page).toHaveURL("/");
    await expect.poll(() => page.evaluate(() => localStorage.length)).toBe(0);
    await expect(nav.getByRole("link", { name: "Sign In", exact: true })).toBeVisible();
    await expect(nav.getByRole("link", { name: "Join the Path", exact: true })).toBeVisible();
    await expect(nav.getByText("IN", { exact: true })).toBeVisible();
    await expect(account).toHaveCount(0);
    expect((await page.context().cookies()).find((c) => c.name === SESSION_COOKIE)).toBeUndefined();

    // Signed out for real: the dashboard asks to sign in again.
    await page.goto("/dashboard");
    await expect(page).toHaveURL("/signin?redirectTo=%2Fdashboard");
  });

  test("initials come from the first and last names", async ({ page }) => {
    await createMember(page.request, newMember("marcus aurelius antoninus"));
    await page.goto("/");
    await expect(page.getByLabel("Account menu for marcus aurelius antoninus", { exact: true })).toHaveText("MA");
  });
});

test.describe("sign in", () => {
  test("validation: 'Please enter a valid email address' and 'Password is required', cleared on change", async ({ page }) => {
    await gotoHydrated(page, "/signin");
    const posts = countPosts(page, "/signin");
    const main = page.getByRole("main");
    const email = main.getByLabel("Email", { exact: true });
    const password = main.getByLabel("Password", { exact: true });
    await main.getByRole("button", { name: "Sign In", exact: true }).click();
    await expect(page.getByText("Please enter a valid email address", { exact: true })).toBeVisible();
    await expect(page.getByText("Password is required", { exact: true })).toBeVisible();
    await expect(email).toHaveAccessibleDescription("Please enter a valid email address");
    await expect(password).toHaveAccessibleDescription("Password is required");
    await expect(email).toBeFocused();

    await email.fill("still-not-an-email");
    await expect(page.getByText("Please enter a valid email address", { exact: true })).toBeVisible();
    await email.fill(uniqueEmail());
    await expect(page.getByText("Please enter a valid email address", { exact: true })).toHaveCount(0);
    await password.fill("x");
    await expect(page.getByText("Password is required", { exact: true })).toHaveCount(0);
    expect(posts.count).toBe(0);
  });

  test("a wrong password: 'Invalid email or password'", async ({ page, request }) => {
    const member = await createMember(request);
    await gotoHydrated(page, "/signin");
    await submitSignIn(page, member.email, `${member.password}-wrong`);
    await expect(page.getByRole("alert").filter({ hasText: "Invalid email or password" })).toHaveText("Invalid email or password");
    await expect(page).toHaveURL("/signin");
    await expect(page.getByRole("main").getByLabel("Email", { exact: true })).toHaveValue(member.email);
    await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Sign In", exact: true })).toBeVisible();
  });

  test("an unknown email gets the same message", async ({ page }) => {
    await gotoHydrated(page, "/signin");
    await submitSignIn(page, uniqueEmail("nobody"), PASSWORD);
    await expect(page.getByRole("alert").filter({ hasText: "Invalid email or password" })).toHaveText("Invalid email or password");
  });

  test("Signing in... while busy, then the dashboard and the 'Welcome back!' toast", async ({ page, request }) => {
    const member = await createMember(request, newMember("Hypatia of Alexandria"));
    await gotoHydrated(page, "/signin");
    await delayPosts(page, "/signin", 1000);
    await submitSignIn(page, member.email, member.password);
    const busy = page.getByRole("main").getByRole("button", { name: "Signing in...", exact: true });
    await expect(busy).toBeVisible();
    await expect(busy).toBeDisabled();

    await expect(page).toHaveURL("/dashboard");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Welcome, ${member.name}`);
    const toast = page.getByRole("region", { name: /^Notifications/ }).getByRole("listitem");
    await expect(toast.getByText("Welcome back!", { exact: true })).toBeVisible();
    await expect(toast.getByText("You have been signed in successfully.", { exact: true })).toBeVisible();
    await expect(page.getByLabel(`Account menu for ${member.name}`, { exact: true })).toHaveText("HA");

    // The toast is shown once, not again on the next page.
    await page.reload();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Welcome, ${member.name}`);
    await expect(page.getByText("Welcome back!", { exact: true })).toHaveCount(0);
  });

  test("'Remember me' keeps the session cookie 30 days; otherwise it ends with the browser", async ({ page, request }) => {
    const member = await createMember(request);
    const session = async () => (await page.context().cookies()).find((c) => c.name === SESSION_COOKIE);

    await gotoHydrated(page, "/signin");
    await submitSignIn(page, member.email, member.password, { remember: true });
    await expect(page).toHaveURL("/dashboard");
    const remembered = await session();
    expect(remembered, "session cookie after sign-in with Remember me").toBeDefined();
    const thirtyDays = Date.now() / 1000 + 30 * 24 * 60 * 60;
    expect(Math.abs(remembered!.expires - thirtyDays)).toBeLessThan(60 * 60);
    expect(remembered!.httpOnly).toBe(true);
    expect(remembered!.sameSite).toBe("Lax");

    await page.context().clearCookies();
    await gotoHydrated(page, "/signin");
    await submitSignIn(page, member.email, member.password);
    await expect(page).toHaveURL("/dashboard");
    const browserSession = await session();
    expect(browserSession, "session cookie after sign-in without Remember me").toBeDefined();
    expect(browserSession!.expires).toBe(-1);
    expect(browserSession!.httpOnly).toBe(true);
    expect(browserSession!.sameSite).toBe("Lax");
  });

  test("/dashboard sends visitors to sign in and comes back after", async ({ page, request }) => {
    const member = await createMember(request);
    const response = await page.goto("/dashboard");
    expect(response?.status()).toBe(200);
    await expect(page).toHaveURL("/signin?redirectTo=%2Fdashboard");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Welcome Back");
    await waitForHydration(page);
    await submitSignIn(page, member.email, member.password);
    await expect(page).toHaveURL("/dashboard");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Welcome, ${member.name}`);
  });

  test("a signed-in member who opens /join is told they are already a member", async ({ page }) => {
    await createMember(page.request);
    await page.goto("/join");
    await expect(page.getByRole("heading", { name: "Create Your Account" })).toHaveCount(0);
    await expect(page.getByRole("link", { name: "Continue to Dashboard", exact: true })).toHaveAttribute("href", "/dashboard");
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("join: the server's message for a bad field, then 'Registration Successful!'", async ({ page }) => {
    await page.goto("/join");
    await fillJoin(page, validJoin({ fullName: "Ada Lovelace", password: "nouppercase1", confirmPassword: "nouppercase1" }));
    await joinForm(page).submit.click();
    await expect(page).toHaveURL("/join");
    await expect(page.getByText(JOIN_MESSAGES.passwordUppercase, { exact: true })).toBeVisible();
    await expect(joinForm(page).password).toHaveAccessibleDescription(`${PASSWORD_HINT} ${JOIN_MESSAGES.passwordUppercase}`);
    // What was typed comes back, except the passwords.
    await expect(joinForm(page).fullName).toHaveValue("Ada Lovelace");
    await expect(joinForm(page).password).toHaveValue("");

    const input = validJoin({ fullName: "Ada Lovelace" });
    await fillJoin(page, input);
    await joinForm(page).submit.click();
    await expect(page.getByRole("heading", { name: "Registration Successful!", exact: true })).toBeVisible();
    await expect(page.getByText("Thank you for joining the community. Your journey begins now.", { exact: true })).toBeVisible();
    await page.getByRole("link", { name: "Continue to Dashboard", exact: true }).click();
    await expect(page).toHaveURL("/dashboard");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Welcome, Ada Lovelace");
    await expect(page.getByLabel("Account menu for Ada Lovelace", { exact: true })).toHaveText("AL");
  });

  test("join: the success page's navigation already shows the new member", async ({ page }) => {
    await page.goto("/join");
    await fillJoin(page, validJoin({ fullName: "Ada Lovelace" }));
    await joinForm(page).submit.click();
    await expect(page.getByRole("heading", { name: "Registration Successful!", exact: true })).toBeVisible();
    const nav = page.getByRole("navigation", { name: "Main" });
    await expect(nav.getByLabel("Account menu for Ada Lovelace", { exact: true })).toHaveText("AL");
    await expect(nav.getByRole("link", { name: "Sign In", exact: true })).toHaveCount(0);
    await expect(nav.getByRole("link", { name: "Join the Path", exact: true })).toHaveCount(0);
  });

  test("join: a field left out of the submission gets the server's 'Required'", async ({ page }) => {
    await page.goto("/join");
    await fillJoin(page, validJoin());
    await joinForm(page).fullName.evaluate((el) => el.removeAttribute("name"));
    await joinForm(page).submit.click();
    await expect(page.getByRole("heading", { name: "Create Your Account" })).toBeVisible();
    await expect(joinForm(page).fullName).toHaveAccessibleDescription("Required");
  });

  test("join: several bad fields at once, each with its message", async ({ page }) => {
    await page.goto("/join");
    await fillJoin(page, validJoin({ fullName: "A", email: "nope", confirmPassword: "different", terms: false }));
    await joinForm(page).submit.click();
    for (const message of [JOIN_MESSAGES.fullName, JOIN_MESSAGES.email, JOIN_MESSAGES.confirmPassword, JOIN_MESSAGES.terms]) {
      await expect(page.getByText(message, { exact: true })).toBeVisible();
    }
  });

  test("sign in: the server's message for a bad email, then back to the dashboard", async ({ page, request }) => {
    const member = await createMember(request, newMember("Ada Lovelace"));
    await page.goto("/dashboard");
    await expect(page).toHaveURL("/signin?redirectTo=%2Fdashboard");
    await submitSignIn(page, "not-an-email", member.password);
    await expect(page.getByText("Please enter a valid email address", { exact: true })).toBeVisible();

    await submitSignIn(page, member.email, member.password);
    await expect(page).toHaveURL("/dashboard");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Welcome, Ada Lovelace");
  });

  test("sign out works as a plain form post", async ({ page }) => {
    await createMember(page.request, newMember("Ada Lovelace"));
    await page.goto("/");
    const account = page.getByLabel("Account menu for Ada Lovelace", { exact: true });
    await account.click();
    await page.getByRole("button", { name: "Sign Out", exact: true }).click();
    await expect(page).toHaveURL("/");
    await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Sign In", exact: true })).toBeVisible();
  });
});
