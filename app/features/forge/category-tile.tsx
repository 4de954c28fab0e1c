import { Link } from "~/components/ui/link";
import { cn, plural } from "~/lib/utils";
import type { CreationType } from "~/lib/domain-values";
import { CREATION_ICONS } from "./creation-types";

export interface Category {
  id: CreationType;
  label: string;
  count: number;
}

export function CategoryTile({ category, active }: { category: Category; active?: boolean }) {
  const Icon = CREATION_ICONS[category.id];
  return (
    <Link
      to={active ? "/forge" : `/forge?type=${category.id}`}
      aria-current={active ? "page" : undefined}
      className={cn(
        "flex flex-col items-center gap-2 rounded-xl border bg-white p-6 text-center shadow-sm hover:border-monk",
        active ? "border-monk ring-2 ring-monk" : "border-line",
      )}
    >
      <Icon aria-hidden="true" className="size-8 text-monk" />
      <span className="font-semibold">{category.label}</span>
      <span className="text-sm text-muted">{plural(category.count, "creation")}</span>
    </Link>
  );
}
