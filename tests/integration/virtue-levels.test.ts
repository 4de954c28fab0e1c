import { describe, expect, it } from "vitest";
import { memberRank, ranksOf } from "~/.server/domain/progression/progression-service";
import { virtueLevelsFor } from "~/.server/domain/progression/virtue-levels";
import { VIRTUE_IDS } from "~/lib/virtues";
import { attempt, challenge, member } from "../factories";
import { ENGINE } from "./test-services";
import { testSiteForFile } from "./file-site";

const site = testSiteForFile();
const span = { startsOn: "2026-01-01", endsOn: "2026-01-07" };

describe(`Virtue levels and ranks on ${ENGINE}`, () => {
  it("counts distinct completed challenges per virtue: level 1 after 1, 2 after 3, 3 after 6; failed and active attempts count nothing", async () => {
    const db = site.services.db;
    const m = await member(db);
    const other = await member(db);
    const untouched = await member(db);
    for (let i = 0; i < 6; i++) {
      const c = await challenge(db, { virtues: i < 3 ? ["wisdom", "courage"] : ["wisdom"] });
      await attempt(db, m.id, c.id, { ...span, status: "completed" });
    }
    const honor = await challenge(db, { virtues: ["honor"] });
    await attempt(db, m.id, honor.id, { ...span, status: "failed" });
    await attempt(db, m.id, honor.id, { ...span, status: "active" });
    const compassion = await challenge(db, { virtues: ["compassion"] });
    await attempt(db, other.id, compassion.id, { ...span, status: "completed" });

    const levels = await virtueLevelsFor(db, [m.id, other.id, untouched.id]);
    expect(levels.get(m.id)).toEqual({ wisdom: 3, courage: 2 });
    expect(levels.get(other.id)).toEqual({ compassion: 1 });
    expect(levels.get(untouched.id)).toEqual({});
  });

  it("ranks from XP and virtues: 3000 XP without every virtue at level 2 stays warlord, with them master", async () => {
    const db = site.services.db;
    const almost = await member(db, { xp: 3200 });
    const master = await member(db, { xp: 3200 });
    for (const virtue of VIRTUE_IDS) {
      for (let i = 0; i < 3; i++) {
        const c = await challenge(db, { virtues: [virtue] });
        await attempt(db, master.id, c.id, { ...span, status: "completed" });
        if (virtue !== "honor") await attempt(db, almost.id, c.id, { ...span, status: "completed" });
      }
    }
    const ranks = await ranksOf(db, [almost.id, master.id]);
    expect(ranks.get(almost.id)?.id).toBe("warlord");
    expect(ranks.get(master.id)?.id).toBe("master");
    expect((await memberRank(db, master.id)).id).toBe("master");
  });
});
