import { Form } from "react-router";
import { Button } from "~/components/ui/button";

/** A small POST form with one button (to this page's action unless told); works without JavaScript. */
export function IntentButton({
  intent,
  fields,
  label,
  variant = "ghost",
  action,
}: {
  intent: string;
  fields: Record<string, string | number>;
  label: string;
  variant?: "ghost" | "outline" | "warrior";
  action?: string;
}) {
  return (
    <Form method="post" action={action} preventScrollReset>
      <input type="hidden" name="intent" value={intent} />
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <Button type="submit" variant={variant} size="sm">
        {label}
      </Button>
    </Form>
  );
}

/**
 * Delete asks once more before it posts: a disclosure, so it needs no script. Escape closes the
 * question and gives focus back to "Delete", as the navigation's menus do.
 */
export function DeleteControl({ intent, fields, prompt }: { intent: string; fields: Record<string, string | number>; prompt: string }) {
  return (
    <details
      className="relative"
      onKeyDown={(e) => {
        if (e.key !== "Escape" || !e.currentTarget.open) return;
        e.preventDefault();
        e.currentTarget.open = false;
        e.currentTarget.querySelector("summary")?.focus();
      }}
    >
      <summary className="inline-flex h-9 cursor-pointer list-none items-center rounded-md px-3 text-sm font-semibold hover:bg-stone-100 [&::-webkit-details-marker]:hidden">
        Delete
      </summary>
      <div className="absolute z-10 mt-1 w-64 rounded-md border border-line bg-white p-3 text-sm shadow-lg">
        <p className="mb-2">{prompt}</p>
        <IntentButton intent={intent} fields={fields} label="Yes, delete" variant="warrior" />
      </div>
    </details>
  );
}

/**
 * Keeps a post in the member's bookmarks, or lets it go (issue 30): /bookmarks does it and sends
 * the member back to the post (`back`, its anchor included).
 */
export function BookmarkButton({ kind, id, bookmarked, back }: { kind: string; id: number; bookmarked: boolean; back: string }) {
  return (
    <IntentButton
      action="/bookmarks"
      intent={bookmarked ? "remove" : "add"}
      fields={{ kind, id, redirectTo: back }}
      label={bookmarked ? "Remove Bookmark" : "Bookmark"}
    />
  );
}
