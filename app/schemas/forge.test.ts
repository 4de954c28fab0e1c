import * as z from "zod/mini";
import { describe, expect, it } from "vitest";
import { firstErrors } from "./form-data";
import { creationSchema, editCreationSchema, PROJECT_NEEDS_LINK, WRITING_NEEDS_TEXT } from "./forge";

/** Issue 26: only the part that is the type's work is required (ADR 0047). */

const form = (type: string, extra: Record<string, string> = {}) => ({
  title: "A quiet piece",
  description: "",
  type,
  body: "",
  submissionKey: "0123456789abcdef0123",
  ...extra,
});
const errors = (schema: typeof creationSchema | typeof editCreationSchema, value: unknown) => {
  const result = z.safeParse(schema, value);
  return result.success ? {} : firstErrors(result.error.issues);
};

describe("the creation schema", () => {
  it("takes Visual Art and Music without a word (their file is checked with the upload)", () => {
    expect(errors(creationSchema, form("art"))).toEqual({});
    expect(errors(creationSchema, form("music", { body: "   " }))).toEqual({});
    const { body: _, ...withoutBody } = form("art");
    expect(z.parse(creationSchema, withoutBody).body).toBe("");
  });

  it("takes a Project with its link and no text, and still asks for the link", () => {
    expect(errors(creationSchema, form("projects", { linkUrl: "https://example.org/bench" }))).toEqual({});
    expect(errors(creationSchema, form("projects"))).toEqual({ linkUrl: PROJECT_NEEDS_LINK });
  });

  it("refuses Writing without text, blanks included, sharing and editing", () => {
    expect(errors(creationSchema, form("writing"))).toEqual({ body: WRITING_NEEDS_TEXT });
    expect(errors(creationSchema, form("writing", { body: " \n " }))).toEqual({ body: WRITING_NEEDS_TEXT });
    const { submissionKey: _, ...edit } = form("writing");
    expect(errors(editCreationSchema, edit)).toEqual({ body: WRITING_NEEDS_TEXT });
    expect(errors(creationSchema, form("writing", { body: "Morning pages." }))).toEqual({});
  });

  it("keeps the body's length limit for every type", () => {
    expect(errors(creationSchema, form("art", { body: "x".repeat(20_001) }))).toEqual({ body: "Post cannot exceed 20,000 characters" });
  });
});
