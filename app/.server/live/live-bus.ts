/**
 * Live updates (issue 28, item 5): what the domain publishes after a commit (a bell's new count, a
 * new reply or answer) and what open pages' event streams subscribe to. Channels are
 * `member:<id>` (the bell), `discussion:<id>` and `question:<id>` (new posts, by id only: the page
 * fetches what it may see). In one process the bus is a map of listeners; between instances on
 * PostgreSQL a bridge carries each publication over LISTEN/NOTIFY (server/live/).
 */
export type LiveEvent = { type: string; [key: string]: string | number | null };

export interface LiveBus {
  /** Delivers to every subscriber of the channel; never throws, never waits. */
  publish(channel: string, event: LiveEvent): void;
  /** Returns the unsubscription. */
  subscribe(channel: string, listener: (event: LiveEvent) => void): () => void;
}

export interface LocalLiveBus extends LiveBus {
  /** Delivers to this process's subscribers only (what the PostgreSQL bridge hands over). */
  deliver(channel: string, event: LiveEvent): void;
  /** Called after each local publish (the PostgreSQL bridge sends it on). */
  onPublish?: (channel: string, event: LiveEvent) => void;
  /** How many listeners are subscribed now, over all channels. */
  size(): number;
}

export function inProcessLiveBus(): LocalLiveBus {
  const channels = new Map<string, Set<(event: LiveEvent) => void>>();
  let count = 0;
  const bus: LocalLiveBus = {
    publish(channel, event) {
      bus.deliver(channel, event);
      try {
        bus.onPublish?.(channel, event);
      } catch {
        // A bridge that fails to send loses the other instances' update, never the write that caused it.
      }
    },
    deliver(channel, event) {
      const listeners = channels.get(channel);
      if (!listeners) return;
      for (const listener of [...listeners]) {
        try {
          listener(event);
        } catch {
          // One broken stream does not keep the event from the others.
        }
      }
    },
    subscribe(channel, listener) {
      let listeners = channels.get(channel);
      if (!listeners) channels.set(channel, (listeners = new Set()));
      listeners.add(listener);
      count += 1;
      let done = false;
      return () => {
        if (done) return;
        done = true;
        count -= 1;
        listeners.delete(listener);
        if (listeners.size === 0) channels.delete(channel);
      };
    },
    size: () => count,
  };
  return bus;
}
