import { Music, Palette, PenLine, Wrench } from "lucide-react";

import type { CreationType } from "~/lib/domain-values";

export const CREATION_LABELS: Record<CreationType, string> = {
  writing: "Writing",
  art: "Visual Art",
  music: "Music",
  projects: "Projects",
};

export const CREATION_ICONS = { writing: PenLine, art: Palette, music: Music, projects: Wrench } as const;
