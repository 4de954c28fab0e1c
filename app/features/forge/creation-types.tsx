import { Music } from "~/components/ui/icons/music";
import { Palette } from "~/components/ui/icons/palette";
import { PenLine } from "~/components/ui/icons/pen-line";
import { Wrench } from "~/components/ui/icons/wrench";

import type { CreationType } from "~/lib/domain-values";

export const CREATION_LABELS: Record<CreationType, string> = {
  writing: "Writing",
  art: "Visual Art",
  music: "Music",
  projects: "Projects",
};

export const CREATION_ICONS = { writing: PenLine, art: Palette, music: Music, projects: Wrench } as const;
