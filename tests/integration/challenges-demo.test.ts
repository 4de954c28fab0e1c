import { describe, expect, it } from "vitest";
import { challengePage, publishedChallenges } from "~/.server/domain/challenges/challenge-read-model";
import { demoSite } from "./demo-site";
import { ENGINE } from "./test-services";

const demo = demoSite();

describe(`demo challenges on ${ENGINE}`, () => {
  it("eight published challenges, four per path, each training one or two virtues, with members on them", async () => {
    const list = await publishedChallenges(demo.site.services.db, null);
    expect(list).toHaveLength(8);
    expect(list.filter((c) => c.path === "monk")).toHaveLength(4);
    expect(list.filter((c) => c.path === "warrior")).toHaveLength(4);
    for (const c of list) expect(c.virtues.length === 1 || c.virtues.length === 2).toBe(true);
    expect(list.reduce((n, c) => n + c.members, 0)).toBeGreaterThanOrEqual(8);
    expect(list.reduce((n, c) => n + c.completed, 0)).toBeGreaterThanOrEqual(5);
    const silence = list.find((c) => c.title === "Thirty Mornings of Silence")!;
    expect(silence).toMatchObject({ members: 2, completed: 1, lengthDays: 30, checkInsRequired: 25, virtues: ["discipline", "wisdom"] });
    expect((await challengePage(demo.site.services.db, silence.id, null))?.challenge.title).toBe("Thirty Mornings of Silence");
  });
});
