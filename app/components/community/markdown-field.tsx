import { hydrateLater } from "~/components/layout/hydrate-later";
import { TextAreaField, type TextAreaFieldProps } from "~/components/ui/form-controls";
import { Link } from "~/components/ui/link";
import { MARKDOWN_HELP } from "~/schemas/fields";

// The tabs and shortcuts come after the page is interactive: no page waits for an editor (issue 32).
const MarkdownTools = hydrateLater(() => import("./markdown-tools").then((m) => m.MarkdownTools));

/**
 * A box that takes member Markdown (issue 32): the labelled box as every form has it, the help line
 * with a link to the Markdown guide, and, once scripts run, Write / Preview tabs (the preview is the
 * server's own rendering) and shortcuts for bold, italic and links, and for a new post a draft kept
 * in the browser at once and on the server every few seconds. Without JavaScript it is the plain
 * box, and the form posts as before.
 */
export function MarkdownField({
  help = MARKDOWN_HELP,
  draft,
  ...props
}: TextAreaFieldProps & {
  /** A new post's box keeps a draft (issue 32): where it will be posted (lib/drafts.ts) and what the dashboard calls it. */
  draft?: { place: string; label: string };
}) {
  const id = props.id ?? props.name;
  return (
    <TextAreaField
      {...props}
      toolbar={<MarkdownTools fieldId={id} draft={draft} />}
      help={
        <>
          {help}{" "}
          <Link to="/markdown" className="underline">
            Markdown guide
          </Link>
        </>
      }
    />
  );
}
