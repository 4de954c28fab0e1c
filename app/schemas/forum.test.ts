import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { discussionSchema, replySchema, topicSchema } from "./forum";
import { firstErrors } from "./form-data";

const errors = (schema: z.core.$ZodType, value: unknown) => {
  const r = z.safeParse(schema, value);
  return r.success ? {} : firstErrors(r.error.issues);
};
const key = "0123456789abcdef0123";

describe("forum schemas", () => {
  it("bounds a discussion title to 8–150 characters and a body to 1–20,000", () => {
    expect(errors(discussionSchema, { title: "Too short", body: "x", submissionKey: key })).toEqual({});
    expect(errors(discussionSchema, { title: "Short", body: "x", submissionKey: key }).title).toBe("Title must be at least 8 characters");
    expect(errors(discussionSchema, { title: "x".repeat(151), body: "x", submissionKey: key }).title).toBe("Title cannot exceed 150 characters");
    expect(errors(discussionSchema, { title: "A fine title", body: "   ", submissionKey: key }).body).toBe("Write something before posting");
    expect(errors(replySchema, { body: "x".repeat(20_001), submissionKey: key }).body).toBe("Post cannot exceed 20,000 characters");
    expect(errors(replySchema, { body: "x".repeat(20_000), submissionKey: key })).toEqual({});
  });
  it("needs the form's submission key", () => {
    expect(errors(replySchema, { body: "x", submissionKey: "<script>" }).submissionKey).toBe("The form is out of date. Please reload the page.");
  });
  it("checks a topic's title and description", () => {
    expect(errors(topicSchema, { title: "ok", description: "short" })).toEqual({
      title: "Title must be at least 3 characters",
      description: "Description must be at least 10 characters",
    });
  });
});

describe("question schema", async () => {
  const { questionSchema } = await import("./council");
  const base = { title: "A real question here", body: "x", submissionKey: key };
  it("takes 1 to 3 of the six virtues", () => {
    expect(errors(questionSchema, { ...base, virtues: ["wisdom"] })).toEqual({});
    expect(errors(questionSchema, { ...base, virtues: [] }).virtues).toBe("Choose at least one virtue");
    expect(errors(questionSchema, { ...base, virtues: ["wisdom", "honor", "courage", "resilience"] }).virtues).toBe("Choose at most three virtues");
    expect(Object.keys(errors(questionSchema, { ...base, virtues: ["patience"] }))[0]).toMatch(/^virtues/);
    expect(errors(questionSchema, { ...base, virtues: ["wisdom", "wisdom"] }).virtues).toBe("Choose each virtue once");
  });
});
