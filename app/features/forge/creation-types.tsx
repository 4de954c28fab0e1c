import { Music, Palette, PenLine, Wrench } from "lucide-react";

export type CreationTypeId = "writing" | "art" | "music" | "projects";

export const CREATION_LABELS: Record<CreationTypeId, string> = {
  writing: "Writing",
  art: "Visual Art",
  music: "Music",
  projects: "Projects",
};

export const CREATION_ICONS = { writing: PenLine, art: Palette, music: Music, projects: Wrench } as const;
