import { describe, expect, it } from "vitest";
import { StatementNames } from "./prepared-statements";

describe("StatementNames", () => {
  it("gives one name per text, the same every time, and none past its bound", () => {
    const names = new StatementNames(2);
    const first = names.nameOf("select 1");
    expect(first).toMatch(/^ipos_[0-9a-f]{8}_0_\d+$/);
    expect(names.nameOf("select 1")).toBe(first);
    const second = names.nameOf("select 2");
    expect(second).not.toBe(first);
    expect(names.nameOf("select 3")).toBeUndefined();
    expect(names.nameOf("select 2")).toBe(second);
  });

  it("renames every text after renameAll, never reusing an old name", () => {
    const names = new StatementNames();
    const before = [names.nameOf("select 1"), names.nameOf("select 2")];
    names.renameAll();
    const after = [names.nameOf("select 2"), names.nameOf("select 1")];
    for (const name of after) expect(before).not.toContain(name);
    expect(after[0]).toMatch(/^ipos_[0-9a-f]{8}_1_/);
    expect(names.generation).toBe(1);
  });

  it("names another process's statements apart (a random part per process)", () => {
    expect(new StatementNames().nameOf("select 1")).not.toBe(new StatementNames().nameOf("select 1"));
  });
});
