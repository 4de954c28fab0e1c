import type { ReactNode } from "react";
import { cn } from "~/lib/utils";

export function PageHeader({
  title,
  intro,
  tone = "neutral",
  children,
}: {
  title: string;
  intro?: ReactNode;
  tone?: "monk" | "warrior" | "neutral";
  children?: ReactNode;
}) {
  return (
    <section
      className={cn("border-b border-line", tone === "monk" && "bg-monk-soft", tone === "warrior" && "bg-warrior-soft", tone === "neutral" && "bg-stone-100")}
    >
      <div className="mx-auto max-w-6xl px-4 py-12">
        <h1 className={cn("font-serif text-4xl font-bold", tone === "monk" && "text-monk-strong", tone === "warrior" && "text-warrior-strong")}>{title}</h1>
        {intro ? <p className="mt-3 max-w-2xl text-lg text-stone-700">{intro}</p> : null}
        {children ? <div className="mt-6 flex flex-wrap gap-3">{children}</div> : null}
      </div>
    </section>
  );
}

export function SectionHeading({ id, children }: { id?: string; children: ReactNode }) {
  return (
    <h2 id={id} className="mb-4 font-serif text-2xl font-bold">
      {children}
    </h2>
  );
}
