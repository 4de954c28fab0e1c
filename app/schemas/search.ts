import * as z from "zod/mini";
import { QUERY_MAX_LENGTH } from "~/lib/search";

/** The search field (issue 30), in the navigation and on /search: words to find, not too many. */
export const searchQuerySchema = z.string().check(z.trim(), z.maxLength(QUERY_MAX_LENGTH, `Search for at most ${QUERY_MAX_LENGTH} characters.`));
