import { describe, expect, it } from "vitest";
import { Lru } from "./lru";

/** The keys an Lru holds, oldest first, read without touching them. */
const keysOf = <K, V>(lru: Lru<K, V>, candidates: K[]) => candidates.filter((k) => lru.has(k));

/** The hand-written eviction the helper replaced in places: the first key inserted goes, hits or not. */
class FirstInFirstOut<K, V> {
  readonly #entries = new Map<K, V>();
  constructor(readonly maxEntries: number) {}
  get(key: K) {
    return this.#entries.get(key);
  }
  has(key: K) {
    return this.#entries.has(key);
  }
  set(key: K, value: V) {
    if (this.#entries.size >= this.maxEntries) this.#entries.delete(this.#entries.keys().next().value!);
    this.#entries.set(key, value);
  }
}

/** The case every cache here relies on: a key read often survives keys written once since. */
function keepsWhatIsRead(cache: { get(key: string): unknown; set(key: string, value: number): unknown; has(key: string): boolean }) {
  for (const [key, value] of [
    ["a", 1],
    ["b", 2],
    ["c", 3],
  ] as const)
    cache.set(key, value);
  cache.get("a");
  cache.set("d", 4);
  return cache.has("a") && !cache.has("b");
}

describe("Lru", () => {
  it("keeps at most maxEntries, forgetting the least recently used first", () => {
    const lru = new Lru<string, number>(3);
    lru.set("a", 1).set("b", 2).set("c", 3);
    expect(lru.get("a")).toBe(1);
    lru.set("d", 4);
    expect(keysOf(lru, ["a", "b", "c", "d"])).toEqual(["a", "c", "d"]);
    expect(lru.size).toBe(3);
    expect(lru.get("b")).toBeUndefined();
  });

  it("a read keeps an entry, where first-in-first-out eviction would drop it", () => {
    expect(keepsWhatIsRead(new Lru<string, number>(3))).toBe(true);
    // The broken example: evicting by insertion order alone forgets the key just read.
    expect(keepsWhatIsRead(new FirstInFirstOut<string, number>(3))).toBe(false);
  });

  it("setting a kept key replaces its value and makes it the most recent, without growing", () => {
    const lru = new Lru<string, number>(2);
    lru.set("a", 1).set("b", 2).set("a", 10).set("c", 3);
    expect(lru.get("a")).toBe(10);
    expect(lru.has("b")).toBe(false);
    expect(lru.size).toBe(2);
  });

  it("keeps a total weight under maxWeight, and never an entry heavier than all of it", () => {
    const lru = new Lru<string, string>(100, { weigh: (key, value) => key.length + value.length, maxWeight: 10 });
    lru.set("a", "1234").set("b", "1234");
    expect(lru.weight).toBe(10);
    lru.set("c", "12");
    expect(keysOf(lru, ["a", "b", "c"])).toEqual(["b", "c"]);
    expect(lru.weight).toBe(8);
    lru.set("d", "x".repeat(20));
    expect(lru.has("d")).toBe(false);
    expect(lru.size).toBe(0);
    expect(lru.weight).toBe(0);
  });

  it("delete and clear give the weight back", () => {
    const lru = new Lru<string, string>(10, { weigh: (_key, value) => value.length });
    lru.set("a", "123").set("b", "4567");
    expect(lru.delete("a")).toBe(true);
    expect(lru.delete("a")).toBe(false);
    expect(lru.weight).toBe(4);
    lru.clear();
    expect(lru.size).toBe(0);
    expect(lru.weight).toBe(0);
  });

  it("holds undefined and null values as values", () => {
    const lru = new Lru<string, null | undefined>(2);
    lru.set("n", null).set("u", undefined).set("n", null);
    lru.get("u");
    lru.set("x", null);
    expect(keysOf(lru, ["n", "u", "x"])).toEqual(["u", "x"]);
  });
});
