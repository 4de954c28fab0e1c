import { describe, expect, it } from "vitest";
import { challengeSchema } from "./challenges";
import { firstErrors } from "./form-data";

const valid = {
  title: "Ten days of slow walking",
  description: "Walk for twenty minutes each day without headphones.",
  path: "monk",
  virtues: ["wisdom"],
  lengthDays: "10",
  checkInsRequired: "8",
  submissionKey: "0123456789abcdef0123",
};
const errorsOf = (values: unknown) => {
  const result = challengeSchema.safeParse(values);
  return result.success ? {} : firstErrors(result.error.issues);
};

describe("challenge schema", () => {
  it("accepts a complete challenge", () => {
    expect(errorsOf(valid)).toEqual({});
  });
  it("one or two virtues, each once, from the list", () => {
    expect(errorsOf({ ...valid, virtues: [] }).virtues).toBe("Choose one or two virtues");
    expect(errorsOf({ ...valid, virtues: ["wisdom", "honor", "courage"] }).virtues).toBe("Choose one or two virtues");
    expect(errorsOf({ ...valid, virtues: ["wisdom", "wisdom"] }).virtues).toBe("Choose each virtue once");
    expect(errorsOf({ ...valid, virtues: ["patience"] })["virtues.0"]).toBe("Choose virtues from the list");
  });
  it("whole numbers in range, check-ins no more than the length", () => {
    expect(errorsOf({ ...valid, lengthDays: "0" }).lengthDays).toBe("Length must be a whole number from 1 to 365");
    expect(errorsOf({ ...valid, lengthDays: "366" }).lengthDays).toBe("Length must be a whole number from 1 to 365");
    expect(errorsOf({ ...valid, lengthDays: "1.5" }).lengthDays).toBe("Length must be a whole number from 1 to 365");
    expect(errorsOf({ ...valid, checkInsRequired: "11" }).checkInsRequired).toBe("Check-ins required cannot exceed the length in days");
  });
  it("a path, a title and a description", () => {
    expect(errorsOf({ ...valid, path: "ninja" }).path).toBe("Choose the monk or the warrior path");
    expect(errorsOf({ ...valid, title: "Short" }).title).toBe("Title must be at least 8 characters");
    expect(errorsOf({ ...valid, description: "Too short" }).description).toBe("Description must be at least 20 characters");
  });
});
