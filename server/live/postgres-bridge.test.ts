import { describe, expect, it } from "vitest";
import type { LiveEvent } from "~/.server/live/live-bus";
import { packPayloads, unpackPayload } from "./postgres-bridge";

describe("the live bridge's NOTIFY payloads", () => {
  it("carry the sender and each event, and read back as sent", () => {
    const items: { channel: string; event: LiveEvent }[] = [
      { channel: "member:m1", event: { type: "bell", unread: 3 } },
      { channel: "discussion:4", event: { type: "reply", id: 9 } },
    ];
    const payloads = packPayloads("abcd1234", items);
    expect(payloads).toHaveLength(1);
    expect(unpackPayload(payloads[0]!)).toEqual({ from: "abcd1234", items });
  });

  it("split many events over several payloads, each within PostgreSQL's 8000 bytes", () => {
    const items = Array.from({ length: 500 }, (_, i) => ({ channel: `member:${"m".repeat(36)}`, event: { type: "bell", unread: i } }));
    const payloads = packPayloads("abcd1234", items);
    expect(payloads.length).toBeGreaterThan(1);
    for (const payload of payloads) expect(Buffer.byteLength(payload)).toBeLessThanOrEqual(7900);
    expect(payloads.flatMap((p) => unpackPayload(p).items)).toEqual(items);
  });

  it("leave out an event too large for any payload, and lines that are not events", () => {
    expect(packPayloads("abcd1234", [{ channel: "discussion:1", event: { type: "reply", pad: "x".repeat(9000) } }])).toEqual([]);
    expect(unpackPayload('abcd1234\nnot-json\ndiscussion:1 {oops\ndiscussion:1 42\nquestion:2 {"type":"answer","id":1}').items).toEqual([
      { channel: "question:2", event: { type: "answer", id: 1 } },
    ]);
  });
});
