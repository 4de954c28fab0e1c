import { data } from "react-router";
import type { PathId, SectionId } from "~/lib/domain-values";

export const SECTIONS: Record<SectionId, { id: SectionId; title: string; intro: string; tone: PathId }> = {
  monastery: {
    id: "monastery",
    title: "The Monastery",
    intro: "A quiet hall for the mind: meditation, philosophy and mindful living, practiced together.",
    tone: "monk",
  },
  battlefield: {
    id: "battlefield",
    title: "The Battlefield",
    intro: "A training ground for the body and the will: strength, endurance, leadership and courage.",
    tone: "warrior",
  },
};

export function parseSection(value: string | undefined): SectionId | null {
  return value === "monastery" || value === "battlefield" ? value : null;
}

/** The section named in the URL, or a 404 for any other word. */
export function sectionOrNotFound(value: string | undefined): SectionId {
  const section = parseSection(value);
  if (!section) throw data("Not found", { status: 404 });
  return section;
}
