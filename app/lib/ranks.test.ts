import { describe, expect, it } from "vitest";
import { RANKS, isRankAtLeast, nextRankNeeds, rankFor, rankProgress } from "./ranks";

const allVirtuesAt = (level: number) => ({
  discipline: level,
  courage: level,
  wisdom: level,
  honor: level,
  resilience: level,
  compassion: level,
});

describe("rankFor, at every threshold of PRODUCT.md §3", () => {
  const cases: [number, string][] = [
    [0, "initiate"],
    [49, "initiate"],
    [50, "acolyte"],
    [149, "acolyte"],
    [150, "disciple"],
    [399, "disciple"],
    [400, "sage"],
    [799, "sage"],
    [800, "samurai"],
    [1499, "samurai"],
    [1500, "warlord"],
    [2999, "warlord"],
  ];
  for (const [xp, rank] of cases) {
    it(`${xp} XP is ${rank}`, () => expect(rankFor(xp).id).toBe(rank));
  }

  it("3000 XP without the virtues stays warlord", () => {
    expect(rankFor(3000).id).toBe("warlord");
    expect(rankFor(10_000, { ...allVirtuesAt(3), honor: 1 }).id).toBe("warlord");
  });
  it("3000 XP with every virtue at level 2 is master", () => {
    expect(rankFor(3000, allVirtuesAt(2)).id).toBe("master");
  });
  it("virtues alone do not make a master", () => {
    expect(rankFor(2999, allVirtuesAt(3)).id).toBe("warlord");
  });
  it("keeps the seed's seven ranks in order with their descriptions", () => {
    expect(RANKS.map((r) => `${r.id}: ${r.description}`)).toEqual([
      "initiate: Beginning the journey",
      "acolyte: Learning the fundamentals",
      "disciple: Practicing the monk's way",
      "sage: Mastering inner peace",
      "samurai: Training in warrior skills",
      "warlord: Leading with strength",
      "master: Balancing both paths",
    ]);
  });
});

describe("rankProgress", () => {
  it("tells the next rank and the XP still needed", () => {
    const p = rankProgress(100);
    expect(p.rank.id).toBe("acolyte");
    expect(p.next?.id).toBe("disciple");
    expect(p.xpToNext).toBe(50);
    expect(p.percent).toBe(50);
  });
  it("says when only the virtues stand between a warlord and master", () => {
    const p = rankProgress(3200);
    expect(p.rank.id).toBe("warlord");
    expect(p.next?.id).toBe("master");
    expect(p.xpToNext).toBe(0);
    expect(p.needsVirtues).toBe(true);
    expect(p.percent).toBe(100);
  });
  it("has no next rank at master", () => {
    const p = rankProgress(5000, allVirtuesAt(2));
    expect(p.next).toBeNull();
    expect(p.percent).toBe(100);
  });
});

describe("isRankAtLeast", () => {
  it("orders ranks", () => {
    expect(isRankAtLeast("disciple", "acolyte")).toBe(true);
    expect(isRankAtLeast("initiate", "disciple")).toBe(false);
  });
});

describe("what the next rank needs", () => {
  it("names the XP still to earn below master", () => {
    expect(nextRankNeeds(30)).toMatchObject({ next: { id: "acolyte" }, xp: 20, virtues: [] });
  });
  it("names XP and every virtue under level 2 on the way to master", () => {
    const needs = nextRankNeeds(2900, { wisdom: 2, courage: 1, honor: 3 });
    expect(needs.next?.id).toBe("master");
    expect(needs.xp).toBe(100);
    expect(needs.virtues).toEqual(["discipline", "courage", "resilience", "compassion"]);
  });
  it("past 3000 XP only the virtues are missing; at master nothing is", () => {
    expect(nextRankNeeds(3200, { wisdom: 2 })).toMatchObject({ next: { id: "master" }, xp: 0 });
    const all = { discipline: 2, courage: 2, wisdom: 2, honor: 2, resilience: 2, compassion: 2 };
    expect(nextRankNeeds(3200, all)).toEqual({ next: null, xp: 0, virtues: [] });
  });
});
