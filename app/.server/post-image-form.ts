import { IMAGE_MAX_BYTES } from "~/schemas/fields";
import { readMultipart, type MultipartOutcome } from "./media/multipart";

/** An image sent from a Markdown box (issue 32): one file, no fields, read as it streams and bounded. */
export function readPostImageForm(request: Request): Promise<MultipartOutcome> {
  return readMultipart(request, {
    files: { image: { maxBytes: IMAGE_MAX_BYTES, tooLarge: "The image is larger than 5 MB." } },
    // The file and the part's headers; nothing else is read.
    totalBytes: IMAGE_MAX_BYTES + 16 * 1024,
    // busboy counts a limit of 0 as reached by the first part: room for one short field, never read.
    maxFields: 1,
    fieldBytes: 1024,
  });
}
