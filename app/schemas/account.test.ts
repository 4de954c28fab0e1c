import { describe, expect, it } from "vitest";
import { joinSchema, signInSchema } from "./account";
import { firstErrors, formToObject, MESSAGE_SEPARATOR } from "./form-data";

const valid = {
  fullName: "Ada Lovelace",
  email: "ada@example.org",
  password: "Secret123",
  confirmPassword: "Secret123",
  bio: "",
  interests: { meditation: true, fitness: false, philosophy: false, creativity: false },
  termsAccepted: true,
};

function errorsOf(values: unknown, schema: typeof joinSchema | typeof signInSchema = joinSchema) {
  const result = schema.safeParse(values);
  return result.success ? {} : firstErrors(result.error.issues);
}

describe("join schema, seed §5 message by message", () => {
  it("accepts a complete registration", () => {
    expect(errorsOf(valid)).toEqual({});
  });
  it("full name under 2 characters", () => {
    expect(errorsOf({ ...valid, fullName: "A" }).fullName).toBe("Full name must be at least 2 characters");
  });
  it("a full name with a line break or another control character (issue 25, item 11)", () => {
    for (const fullName of ["Ana\nBob", "Ana\r\nBob", "Ana\tBob", "Ana\u0000Bob", "Ana\u007fBob", "Ana\u0085Bob", "Ana\u2028Bob", "Ana\u2029Bob"]) {
      expect(errorsOf({ ...valid, fullName }).fullName, JSON.stringify(fullName)).toBe("Full name must be on one line");
    }
    // Around the name they are only space: trimmed away, as before.
    expect(joinSchema.parse({ ...valid, fullName: "\nAna Bob\n" }).fullName).toBe("Ana Bob");
    expect(errorsOf({ ...valid, fullName: "Zoë Ann-Marie O'Neil 李" })).toEqual({});
  });
  it("an invalid email", () => {
    expect(errorsOf({ ...valid, email: "not-an-email" }).email).toBe("Please enter a valid email address");
    expect(errorsOf({ ...valid, email: "" }).email).toBe("Please enter a valid email address");
  });
  it("a password under 8 characters", () => {
    expect(errorsOf({ ...valid, password: "Ab1", confirmPassword: "Ab1" }).password).toBe("Password must be at least 8 characters");
  });
  it("a password without an uppercase letter", () => {
    expect(errorsOf({ ...valid, password: "secret123", confirmPassword: "secret123" }).password).toBe("Password must contain at least one uppercase letter");
  });
  it("a password without a digit", () => {
    expect(errorsOf({ ...valid, password: "SecretWord", confirmPassword: "SecretWord" }).password).toBe("Password must contain at least one number");
  });
  it("a password failing several rules lists every one, in the rules' order (issue 26, item 9)", () => {
    expect(errorsOf({ ...valid, password: "short", confirmPassword: "short" }).password?.split(MESSAGE_SEPARATOR)).toEqual([
      "Password must be at least 8 characters",
      "Password must contain at least one uppercase letter",
      "Password must contain at least one number",
    ]);
    expect(errorsOf({ ...valid, password: "A".repeat(129), confirmPassword: "x" }).password?.split(MESSAGE_SEPARATOR)).toEqual([
      "Password must contain at least one number",
      "Password cannot exceed 128 characters",
    ]);
  });
  it("other fields still show one message, the first", () => {
    const errors = firstErrors([
      { path: ["email"], message: "Please enter a valid email address" },
      { path: ["email"], message: "Expected string" },
      { path: ["password"], message: "Required" },
      { path: ["password"], message: "Password must be at least 8 characters" },
    ]);
    expect(errors).toEqual({ email: "Please enter a valid email address", password: "Required" });
  });
  it("passwords that differ, shown on confirmPassword", () => {
    const errors = errorsOf({ ...valid, confirmPassword: "Secret124" });
    expect(errors.confirmPassword).toBe("Passwords do not match");
    expect(errors.password).toBeUndefined();
  });
  it("passwords that differ are reported even while another field is wrong", () => {
    expect(errorsOf({ ...valid, fullName: "", confirmPassword: "x" }).confirmPassword).toBe("Passwords do not match");
  });
  it("a missing confirmPassword is 'Required'", () => {
    const { confirmPassword: _, ...rest } = valid;
    expect(errorsOf(rest).confirmPassword).toBe("Required");
  });
  it("a bio over 250 characters", () => {
    expect(errorsOf({ ...valid, bio: "x".repeat(251) }).bio).toBe("Bio cannot exceed 250 characters");
    expect(errorsOf({ ...valid, bio: "x".repeat(250) })).toEqual({});
  });
  it("terms not accepted", () => {
    expect(errorsOf({ ...valid, termsAccepted: false }).termsAccepted).toBe("You must accept the terms and conditions");
  });
});

describe("sign-in schema", () => {
  it("an invalid email", () => {
    expect(errorsOf({ email: "x", password: "a" }, signInSchema).email).toBe("Please enter a valid email address");
  });
  it("an empty password", () => {
    expect(errorsOf({ email: "a@b.co", password: "" }, signInSchema).password).toBe("Password is required");
  });
  it("remember me defaults to false", () => {
    expect(signInSchema.parse({ email: "a@b.co", password: "x" }).rememberMe).toBe(false);
  });
});

describe("formToObject", () => {
  it("reads checkboxes as booleans and dotted names as nested objects", () => {
    const data = new FormData();
    data.set("fullName", "Ada");
    data.set("interests.fitness", "on");
    expect(formToObject(data, ["interests.fitness", "interests.meditation", "termsAccepted"])).toEqual({
      fullName: "Ada",
      interests: { fitness: true, meditation: false },
      termsAccepted: false,
    });
  });
  it("ignores prototype keys", () => {
    const data = new FormData();
    data.set("__proto__.polluted", "yes");
    formToObject(data);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
