import { Form } from "react-router";
import { Button } from "~/components/ui/button";

/** A small POST form with one button; works without JavaScript. */
export function IntentButton({
  intent,
  fields,
  label,
  variant = "ghost",
}: {
  intent: string;
  fields: Record<string, string | number>;
  label: string;
  variant?: "ghost" | "outline" | "warrior";
}) {
  return (
    <Form method="post" preventScrollReset>
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
