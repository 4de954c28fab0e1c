/**
 * Bounds on work that holds a thread for seconds (decoding and encoding an upload, ADR 0043): at
 * most so many at once, at most so many waiting, and the rest refused at once rather than piled
 * up in memory. Both live in one process; each instance of the site bounds its own.
 */

export type Queued<T> = { ok: true; value: T } | { ok: false };

/** At most `concurrency` tasks run at once and at most `maxWaiting` wait their turn, first come first served. */
export class WorkQueue {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    readonly concurrency: number,
    readonly maxWaiting: number,
  ) {}

  /** Runs `task` when a place is free; `{ ok: false }` at once when the queue is full. */
  async run<T>(task: () => Promise<T>): Promise<Queued<T>> {
    if (this.running < this.concurrency) this.running += 1;
    else if (this.waiting.length < this.maxWaiting) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else return { ok: false };
    try {
      return { ok: true, value: await task() };
    } finally {
      // The place passes straight to the next in line, so nobody arriving now can take it first.
      const next = this.waiting.shift();
      if (next) next();
      else this.running -= 1;
    }
  }

  /** Tasks running and waiting, for the tests and the benchmark. */
  get size() {
    return { running: this.running, waiting: this.waiting.length };
  }
}

/** One task at a time per key (a member), at most `maxWaiting` more waiting behind it. */
export class TurnsByKey {
  private readonly queues = new Map<string, WorkQueue>();

  constructor(readonly maxWaiting: number) {}

  async run<T>(key: string, task: () => Promise<T>): Promise<Queued<T>> {
    let queue = this.queues.get(key);
    if (!queue) {
      queue = new WorkQueue(1, this.maxWaiting);
      this.queues.set(key, queue);
    }
    try {
      return await queue.run(task);
    } finally {
      // A key with nothing running and nobody waiting is forgotten: the map holds only busy members.
      if (queue.size.running === 0 && this.queues.get(key) === queue) this.queues.delete(key);
    }
  }

  /** Keys with work running or waiting. */
  get keys() {
    return this.queues.size;
  }
}
