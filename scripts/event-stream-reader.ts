// An event stream read as a browser's EventSource reads it, for what reads /live outside a browser:
// the live-stream tests and bench:live's readers.
import type { IncomingMessage } from "node:http";

/** One event of the stream: its data (lines joined by "\n"), and the reconnection delay if it set one. */
export interface StreamEvent {
  data?: string;
  retry?: number;
}

/**
 * Calls `onEvent` with each event of a text/event-stream response as it arrives: the chunks joined,
 * cut at each blank line, the `data:` and `retry:` fields read. A comment (`:` keep-alive) gives an
 * event with neither, which callers pass over.
 */
export function readEventStream(res: IncomingMessage, onEvent: (event: StreamEvent) => void): void {
  let buffered = "";
  res.setEncoding("utf8");
  res.on("data", (chunk: string) => {
    buffered += chunk;
    let at: number;
    while ((at = buffered.indexOf("\n\n")) !== -1) {
      const block = buffered.slice(0, at);
      buffered = buffered.slice(at + 2);
      const event: StreamEvent = {};
      for (const line of block.split("\n")) {
        if (line.startsWith("data: ")) event.data = event.data === undefined ? line.slice(6) : `${event.data}\n${line.slice(6)}`;
        else if (line.startsWith("retry: ")) event.retry = Number(line.slice(7));
      }
      onEvent(event);
    }
  });
}
