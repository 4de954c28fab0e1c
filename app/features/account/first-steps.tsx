import { CheckCircle2 } from "~/components/ui/icons/check-circle-2";
import { Icon } from "~/components/ui/icons/icon";
import { Link } from "~/components/ui/link";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";

export interface FirstStepItem {
  id: string;
  label: string;
  href: string;
  done: boolean;
}

/**
 * A new member's first steps (issue 26 item 4): each a link to where it is taken, ticked once it
 * is. The tick is an icon, so "(done)" is written out for screen readers; the loader leaves the
 * list out once every step is done.
 */
export function FirstSteps({ steps }: { steps: FirstStepItem[] }) {
  const done = steps.filter((s) => s.done).length;
  return (
    <Card className="mt-8" data-testid="first-steps">
      <CardHeader>
        <CardTitle>First steps</CardTitle>
        <p className="text-sm text-stone-700">
          {done} of {steps.length} done. Each step ticks itself when you take it.
        </p>
      </CardHeader>
      <CardContent>
        <ul className="grid gap-3 sm:grid-cols-2">
          {steps.map((s) => (
            <li key={s.id} className="flex items-center gap-2" data-done={s.done ? "" : undefined}>
              {s.done ? (
                <CheckCircle2 aria-hidden="true" className="size-5 shrink-0 text-monk-strong" />
              ) : (
                <Icon aria-hidden="true" className="size-5 shrink-0 text-stone-400">
                  <circle cx="12" cy="12" r="10" />
                </Icon>
              )}
              <Link to={s.href} className={s.done ? "text-stone-700 underline" : "font-semibold text-monk-strong underline"}>
                {s.label}
              </Link>
              {s.done ? <span className="sr-only">(done)</span> : null}
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}
