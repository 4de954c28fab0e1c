// The messages for a creation whose work is missing (issue 26, ADR 0047), kept free of zod so the
// share form can show them before its schema has loaded (ADR 0029).
// Each says what the type's work is, and that words are optional beside a file or a link: so a
// form with neither text nor file asks clearly for the one part that is needed.
export const WRITING_NEEDS_TEXT = "Write your piece: for Writing, the text is the work.";
export const ART_NEEDS_IMAGE = "Choose an image for Visual Art: the image is the work, words are optional.";
export const MUSIC_NEEDS_AUDIO = "Choose an audio file for Music: the recording is the work, words are optional.";
export const PROJECT_NEEDS_LINK = "Add a link to the project: the link is the work, words are optional.";
