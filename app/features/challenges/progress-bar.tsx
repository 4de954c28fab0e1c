import { cn } from "~/lib/utils";

/** A labelled bar: `done` of `total`, named for screen readers as it reads on screen. */
export function ProgressBar({
  label,
  done,
  total,
  unit,
  tone = "monk",
}: {
  label: string;
  done: number;
  total: number;
  unit: string;
  tone?: "monk" | "warrior";
}) {
  const percent = total > 0 ? Math.min(100, Math.floor((done / total) * 100)) : 100;
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={total}
      aria-valuenow={Math.min(done, total)}
      aria-valuetext={`${done} of ${total} ${unit}`}
      className="h-3 overflow-hidden rounded-full bg-stone-200"
    >
      <div className={cn("h-full rounded-full", tone === "monk" ? "bg-monk" : "bg-warrior")} style={{ width: `${percent}%` }} />
    </div>
  );
}
