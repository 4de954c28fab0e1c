import { describe, expect, it } from "vitest";
import { TurnsByKey, WorkQueue } from "./image-queue";

/** A task that runs until the test lets it finish, recording how many ran at once. */
function gate() {
  let running = 0;
  let most = 0;
  const order: number[] = [];
  const releases: (() => void)[] = [];
  const task = (n: number) => async () => {
    running += 1;
    most = Math.max(most, running);
    order.push(n);
    await new Promise<void>((resolve) => releases.push(resolve));
    running -= 1;
    return n;
  };
  /** Lets the oldest task still running finish, and waits until whatever its place starts has begun. */
  const releaseOne = async () => {
    releases.shift()?.();
    await new Promise((r) => setTimeout(r, 0));
  };
  return { task, releaseOne, most: () => most, order };
}

const settle = () => new Promise((r) => setTimeout(r, 0));

describe("WorkQueue", () => {
  it("runs at most `concurrency` tasks at once, lets `maxWaiting` wait, refuses the rest at once", async () => {
    const queue = new WorkQueue(2, 3);
    const g = gate();
    const results = Array.from({ length: 7 }, (_, i) => queue.run(g.task(i)));
    await settle();
    expect(queue.size).toEqual({ running: 2, waiting: 3 });
    // The two beyond the queue answer before anything finishes.
    expect(await results[5]).toEqual({ ok: false });
    expect(await results[6]).toEqual({ ok: false });
    for (let i = 0; i < 5; i++) await g.releaseOne();
    expect(await Promise.all(results.slice(0, 5))).toEqual([0, 1, 2, 3, 4].map((value) => ({ ok: true, value })));
    expect(g.most()).toBe(2);
    // First come, first served.
    expect(g.order).toEqual([0, 1, 2, 3, 4]);
    expect(queue.size).toEqual({ running: 0, waiting: 0 });
  });

  it("a task that fails gives its place to the next", async () => {
    const queue = new WorkQueue(1, 1);
    const failed = queue.run(async () => {
      await settle();
      throw new Error("bad image");
    });
    const next = queue.run(async () => "next");
    await expect(failed).rejects.toThrow("bad image");
    expect(await next).toEqual({ ok: true, value: "next" });
    expect(queue.size).toEqual({ running: 0, waiting: 0 });
  });

  it("a place freed goes to the one waiting, not to one arriving at that moment", async () => {
    const queue = new WorkQueue(1, 1);
    const g = gate();
    const first = queue.run(g.task(1));
    const waiting = queue.run(g.task(2));
    await settle();
    await g.releaseOne();
    // The waiting task holds the place now: a newcomer waits (the queue has room again) rather than running beside it.
    const newcomer = queue.run(g.task(3));
    await settle();
    expect(queue.size).toEqual({ running: 1, waiting: 1 });
    await g.releaseOne();
    await g.releaseOne();
    expect([await first, await waiting, await newcomer]).toEqual([1, 2, 3].map((value) => ({ ok: true, value })));
    expect(g.most()).toBe(1);
  });
});

describe("TurnsByKey", () => {
  it("one task at a time per key, others keys beside it; too many waiting are refused", async () => {
    const turns = new TurnsByKey(2);
    const g = gate();
    const mine = [1, 2, 3, 4].map((n) => turns.run("member-a", g.task(n)));
    const theirs = turns.run("member-b", g.task(10));
    await settle();
    expect(g.order).toEqual([1, 10]);
    expect(await mine[3]).toEqual({ ok: false });
    expect(turns.keys).toBe(2);
    await g.releaseOne(); // 1
    await g.releaseOne(); // 10
    expect(g.order).toEqual([1, 10, 2]);
    await g.releaseOne(); // 2
    await g.releaseOne(); // 3
    expect(await Promise.all(mine.slice(0, 3))).toEqual([1, 2, 3].map((value) => ({ ok: true, value })));
    expect(await theirs).toEqual({ ok: true, value: 10 });
    // Keys with nothing to do are forgotten, so the map holds only members sending now.
    expect(turns.keys).toBe(0);
  });
});
