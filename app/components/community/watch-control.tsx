import { Form } from "react-router";
import { Button } from "~/components/ui/button";
import { WATCH_LEVELS, type WatchLevel } from "~/lib/notifications";

/** What watching brings on each kind of page; normal and muted read the same everywhere. */
const WATCHING_BRINGS = {
  discussion: "every new reply",
  question: "every new answer",
  topic: "every new discussion",
} as const;

/**
 * A discussion, question or topic's watching level (issue 28): a select and a button that post
 * `intent=watch` and `level` to the page's own action. Plain markup: it works without JavaScript.
 */
export function WatchControl({ what, level, className }: { what: keyof typeof WATCHING_BRINGS; level: WatchLevel; className?: string }) {
  return (
    <Form method="post" preventScrollReset id="watch" className={className} aria-labelledby="watch-label">
      <input type="hidden" name="intent" value="watch" />
      <div className="flex flex-wrap items-center gap-2">
        <label id="watch-label" htmlFor="watch-level" className="text-sm font-medium">
          Notifications for this {what}
        </label>
        <select
          id="watch-level"
          name="level"
          defaultValue={level}
          aria-describedby="watch-help"
          className="h-9 rounded-md border border-stone-300 bg-white px-2 text-sm"
        >
          {Object.entries(WATCH_LEVELS).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
        <Button type="submit" variant="outline" size="sm">
          Update notifications
        </Button>
      </div>
      <p id="watch-help" className="mt-1 text-xs text-muted">
        Watching: {WATCHING_BRINGS[what]}. Normal: only what is addressed to you, such as a mention. Muted: nothing from here.
      </p>
    </Form>
  );
}
