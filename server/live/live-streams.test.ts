import { describe, expect, it } from "vitest";
import { eventChunk, isLiveRequest, watchedChannel } from "./live-streams";

describe("the channel a stream's address asks for", () => {
  it("is none, or one discussion or question by id", () => {
    expect(watchedChannel("")).toEqual({ watch: null });
    expect(watchedChannel("watch=discussion:12")).toEqual({ watch: "discussion:12" });
    expect(watchedChannel("watch=question%3A3")).toEqual({ watch: "question:3" });
  });

  it.each([
    "watch=member:abc",
    "watch=topic:1",
    "watch=discussion:0",
    "watch=discussion:012",
    "watch=discussion:1x",
    "watch=discussion:",
    "watch=discussion:12345678901",
    "watch=",
    "watch=discussion:1&watch=question:2",
    "watch=discussion:1&extra=1",
    "member=m1",
  ])("refuses %s", (search) => {
    expect(watchedChannel(search)).toBeNull();
  });
});

describe("the stream's wire format", () => {
  it("sends an event as one data line of JSON and a blank line", () => {
    expect(eventChunk({ type: "reply", id: 5, note: "two\nlines" })).toBe('data: {"type":"reply","id":5,"note":"two\\nlines"}\n\n');
  });

  it("knows its own address with or without a query, and nothing else", () => {
    expect(isLiveRequest("/live")).toBe(true);
    expect(isLiveRequest("/live?watch=discussion:1")).toBe(true);
    expect(isLiveRequest("/lives")).toBe(false);
    expect(isLiveRequest("/live/x")).toBe(false);
    expect(isLiveRequest(undefined)).toBe(false);
  });
});
