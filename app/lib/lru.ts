/**
 * A map that forgets its least recently used entries past a bound: the one way this code keeps a
 * memo of derived values (prepared statements, rendered reply cards, route scripts) without letting
 * member-dependent keys grow the process's memory. The bound is a count of entries and, when a
 * `weigh` function is given, a total weight as well (say, characters held); one entry heavier than
 * the whole weight is not kept at all. Map keeps insertion order, so the first key is the oldest:
 * a hit moves its entry last.
 */
export class Lru<K, V> {
  readonly #entries = new Map<K, V>();
  readonly #weigh: ((key: K, value: V) => number) | undefined;
  readonly #maxWeight: number;
  #weight = 0;

  constructor(
    readonly maxEntries: number,
    options: { weigh?: (key: K, value: V) => number; maxWeight?: number } = {},
  ) {
    this.#weigh = options.weigh;
    this.#maxWeight = options.maxWeight ?? Infinity;
  }

  get size(): number {
    return this.#entries.size;
  }

  /** The total weight held (0 without `weigh`). */
  get weight(): number {
    return this.#weight;
  }

  /** The value, now the most recently used; undefined when it is not kept. */
  get(key: K): V | undefined {
    const value = this.#entries.get(key);
    if (value !== undefined || this.#entries.has(key)) {
      this.#entries.delete(key);
      this.#entries.set(key, value as V);
    }
    return value;
  }

  has(key: K): boolean {
    return this.#entries.has(key);
  }

  /** Keeps the value as the most recently used, then forgets the oldest entries until within bounds. */
  set(key: K, value: V): this {
    this.delete(key);
    this.#entries.set(key, value);
    this.#weight += this.#weigh?.(key, value) ?? 0;
    for (const [oldest, old] of this.#entries) {
      if (this.#entries.size <= this.maxEntries && this.#weight <= this.#maxWeight) break;
      this.#forget(oldest, old);
    }
    return this;
  }

  delete(key: K): boolean {
    if (!this.#entries.has(key)) return false;
    this.#forget(key, this.#entries.get(key) as V);
    return true;
  }

  clear(): void {
    this.#entries.clear();
    this.#weight = 0;
  }

  #forget(key: K, value: V) {
    this.#entries.delete(key);
    this.#weight -= this.#weigh?.(key, value) ?? 0;
  }
}
