/**
 * Between the lines of a message that lists several (a password's failed rules); FieldError shows
 * them as a list. A module of its own: FieldError is on every page, and importing the constant from
 * schemas/form-data put that module's form readers into every page's script too.
 */
export const MESSAGE_SEPARATOR = "\n";
