import * as z from "zod/mini";
import { formatCount } from "~/lib/utils";
import { VIRTUE_IDS } from "~/lib/virtues";
import { submissionKeySchema } from "./forum";
import {
  CHALLENGE_TITLE_MIN,
  CHALLENGE_TITLE_MAX,
  CHALLENGE_DESCRIPTION_MIN,
  CHALLENGE_DESCRIPTION_MAX,
  CHALLENGE_LENGTH_MAX,
  CHALLENGE_NUMBER_MIN,
} from "./fields";
export {
  CHALLENGE_TITLE_MIN,
  CHALLENGE_TITLE_MAX,
  CHALLENGE_DESCRIPTION_MIN,
  CHALLENGE_DESCRIPTION_MAX,
  CHALLENGE_LENGTH_MAX,
  CHALLENGE_LISTS,
} from "./fields";

// A challenge as advisors create it and sages propose it (issue 11, ADR 0022).

const text = z.string({ error: (issue) => (issue.input === undefined ? "Required" : "Expected text") });
const wholeNumber = (label: string, max: number) =>
  text.check(
    z.trim(),
    z.regex(/^[0-9]{1,3}$/, `${label} must be a whole number from ${CHALLENGE_NUMBER_MIN} to ${max}`),
    z.refine(
      (value) => Number(value) >= CHALLENGE_NUMBER_MIN && Number(value) <= max,
      `${label} must be a whole number from ${CHALLENGE_NUMBER_MIN} to ${max}`,
    ),
  );

export const challengeSchema = z
  .object({
    title: text.check(
      z.trim(),
      z.minLength(CHALLENGE_TITLE_MIN, `Title must be at least ${CHALLENGE_TITLE_MIN} characters`),
      z.maxLength(CHALLENGE_TITLE_MAX, `Title cannot exceed ${CHALLENGE_TITLE_MAX} characters`),
    ),
    description: text.check(
      z.trim(),
      z.minLength(CHALLENGE_DESCRIPTION_MIN, `Description must be at least ${CHALLENGE_DESCRIPTION_MIN} characters`),
      z.maxLength(CHALLENGE_DESCRIPTION_MAX, `Description cannot exceed ${formatCount(CHALLENGE_DESCRIPTION_MAX)} characters`),
    ),
    path: z.enum(["monk", "warrior"], { error: "Choose the monk or the warrior path" }),
    virtues: z.array(z.enum(VIRTUE_IDS, { error: "Choose virtues from the list" })).check(
      z.minLength(1, "Choose one or two virtues"),
      z.maxLength(2, "Choose one or two virtues"),
      z.refine((list) => new Set(list).size === list.length, "Choose each virtue once"),
    ),
    lengthDays: wholeNumber("Length", CHALLENGE_LENGTH_MAX),
    checkInsRequired: wholeNumber("Check-ins required", CHALLENGE_LENGTH_MAX),
    submissionKey: submissionKeySchema,
  })
  .check(
    z.refine((v) => Number(v.checkInsRequired) <= Number(v.lengthDays), {
      message: "Check-ins required cannot exceed the length in days",
      path: ["checkInsRequired"],
    }),
  );

export const reviewSchema = z.object({
  decision: z.enum(["publish", "decline"], { error: "Choose to publish or decline" }),
});
