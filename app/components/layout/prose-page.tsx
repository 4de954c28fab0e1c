import type { ComponentProps, ReactNode } from "react";
import { Link } from "~/components/ui/link";
import { TEXT_LINK_CLASS } from "~/lib/site";
import { cn } from "~/lib/utils";

// Made on first use: an Intl formatter made while the module loads costs every page that imports it.
let dateFormat: Intl.DateTimeFormat | undefined;
/** "November 23, 2026" for a "2026-11-23" day. */
function longDate(day: string) {
  dateFormat ??= new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeZone: "UTC" });
  return dateFormat.format(new Date(`${day}T00:00:00Z`));
}

/** A long-form page: one h1, an optional lead and "last updated" line, then `ProseSection`s. */
export function ProsePage({
  title,
  lead,
  lastUpdated,
  wide = false,
  children,
  className,
}: {
  title: string;
  lead?: ReactNode;
  /** ISO date (YYYY-MM-DD), shown as "Last updated: November 21, 2026". */
  lastUpdated?: string;
  /** max-w-5xl instead of max-w-3xl, for pages with grids. */
  wide?: boolean;
  children: ReactNode;
  className?: string;
}) {
  return (
    <article className={cn("mx-auto px-4 py-12", wide ? "max-w-5xl" : "max-w-3xl", className)}>
      <header className="mb-10 border-b border-line pb-8">
        <h1 className="font-serif text-3xl font-bold tracking-tight text-ink sm:text-4xl">{title}</h1>
        {lastUpdated ? (
          <p className="mt-3 text-sm text-muted">
            Last updated: <time dateTime={lastUpdated}>{longDate(lastUpdated)}</time>
          </p>
        ) : null}
        {lead ? <div className="mt-4 max-w-prose text-lg leading-8 text-muted">{lead}</div> : null}
      </header>
      <div>{children}</div>
    </article>
  );
}

/** Paragraph, list and h3 styles for plain prose; lists given their own classes opt out via `plain`. */
const PROSE =
  "space-y-4 leading-7 [&_h3]:mt-8 [&_h3]:text-lg [&_h3]:font-semibold [&_ul]:list-disc [&_ul]:space-y-2 [&_ul]:pl-6 [&_ol]:list-decimal [&_ol]:space-y-2 [&_ol]:pl-6 [&_li]:pl-1 [&_strong]:font-semibold";

/** One h2 section; the id doubles as an anchor (/privacy#cookies). */
export function ProseSection({
  id,
  title,
  plain = false,
  children,
  className,
}: {
  id: string;
  title: ReactNode;
  /** Skip the prose list styles, for sections that lay out their own grids and tables. */
  plain?: boolean;
  children: ReactNode;
  className?: string;
}) {
  return (
    <section aria-labelledby={id} className={cn("mt-12 first:mt-0", className)}>
      <h2 id={id} className="scroll-mt-24 font-serif text-2xl font-bold text-ink">
        {title}
      </h2>
      <div className={cn("mt-4 text-ink", !plain && PROSE)}>{children}</div>
    </section>
  );
}

/** An in-site link inside running text: underlined, so it never relies on colour alone. */
export function TextLink({ className, ...props }: ComponentProps<typeof Link>) {
  return <Link className={cn(TEXT_LINK_CLASS, className)} {...props} />;
}
