export type SectionId = "monastery" | "battlefield";

export const SECTIONS: Record<SectionId, { id: SectionId; title: string; intro: string; tone: "monk" | "warrior" }> = {
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

export function sectionFromPath(pathname: string): SectionId | null {
  const first = pathname.split("/")[1];
  return first === "monastery" || first === "battlefield" ? first : null;
}
