import { describe, expect, it } from "vitest";
import { firstSteps, latestPosts, type RecentPost } from "./dashboard-read-model";

describe("firstSteps", () => {
  it("keeps the four steps in order, each done as its fact says, and is gone once all are done", () => {
    const steps = firstSteps({ forum: true, challenge: false, council: true, forge: false });
    expect(steps?.map((s) => [s.id, s.done])).toEqual([
      ["forum", true],
      ["challenge", false],
      ["council", true],
      ["forge", false],
    ]);
    expect(firstSteps({ forum: true, challenge: true, council: true, forge: false })).not.toBeNull();
    expect(firstSteps({ forum: true, challenge: true, council: true, forge: true })).toBeNull();
  });
});

describe("latestPosts", () => {
  const post = (key: string, at: string): RecentPost => ({ key, kind: "discussion", title: key, href: `/${key}`, at, date: "" });
  it("merges the kinds newest first, keeps the given order on a tie, and cuts to the limit", () => {
    const merged = latestPosts(
      [
        [post("d2", "2026-11-27T10:00:00.000Z"), post("d1", "2026-11-20T10:00:00.000Z")],
        [post("r1", "2026-11-28T09:00:00.000Z"), post("r0", "2026-11-27T10:00:00.000Z")],
        [post("q1", "2026-11-25T10:00:00.000Z")],
      ],
      4,
    );
    expect(merged.map((p) => p.key)).toEqual(["r1", "d2", "r0", "q1"]);
  });
});
