import { describe, expect, it } from "vitest";
import { inProcessLiveBus, type LiveEvent } from "./live-bus";

describe("the in-process live bus", () => {
  it("delivers a publication to every subscriber of its channel and to no other channel", () => {
    const bus = inProcessLiveBus();
    const a: LiveEvent[] = [];
    const b: LiveEvent[] = [];
    const other: LiveEvent[] = [];
    bus.subscribe("discussion:1", (e) => a.push(e));
    bus.subscribe("discussion:1", (e) => b.push(e));
    bus.subscribe("discussion:2", (e) => other.push(e));
    bus.publish("discussion:1", { type: "reply", id: 7 });
    expect(a).toEqual([{ type: "reply", id: 7 }]);
    expect(b).toEqual([{ type: "reply", id: 7 }]);
    expect(other).toEqual([]);
  });

  it("stops delivering after the unsubscription, and forgets an empty channel", () => {
    const bus = inProcessLiveBus();
    const got: LiveEvent[] = [];
    const off = bus.subscribe("member:m1", (e) => got.push(e));
    expect(bus.size()).toBe(1);
    off();
    off();
    bus.publish("member:m1", { type: "bell", unread: 1 });
    expect(got).toEqual([]);
    expect(bus.size()).toBe(0);
  });

  it("never throws to the publisher: a failing listener or bridge leaves the others their event", () => {
    const bus = inProcessLiveBus();
    const got: LiveEvent[] = [];
    bus.subscribe("question:3", () => {
      throw new Error("a broken stream");
    });
    bus.subscribe("question:3", (e) => got.push(e));
    bus.onPublish = () => {
      throw new Error("a broken bridge");
    };
    expect(() => bus.publish("question:3", { type: "answer", id: 4 })).not.toThrow();
    expect(got).toEqual([{ type: "answer", id: 4 }]);
  });

  it("hands local publications to the bridge, and delivers what the bridge brings without sending it back", () => {
    const bus = inProcessLiveBus();
    const sent: string[] = [];
    const got: LiveEvent[] = [];
    bus.onPublish = (channel) => sent.push(channel);
    bus.subscribe("discussion:5", (e) => got.push(e));
    bus.publish("discussion:5", { type: "reply", id: 1 });
    bus.deliver("discussion:5", { type: "reply", id: 2 });
    expect(sent).toEqual(["discussion:5"]);
    expect(got.map((e) => e.id)).toEqual([1, 2]);
  });

  it("lets a listener unsubscribe itself while an event is being delivered", () => {
    const bus = inProcessLiveBus();
    const got: number[] = [];
    const off = bus.subscribe("discussion:9", () => {
      got.push(1);
      off();
    });
    bus.subscribe("discussion:9", () => got.push(2));
    bus.publish("discussion:9", { type: "reply", id: 1 });
    bus.publish("discussion:9", { type: "reply", id: 2 });
    expect(got).toEqual([1, 2, 2]);
  });
});
