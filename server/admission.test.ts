import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { admission, type Admission, type AdmissionOptions } from "./admission";

/** A real HTTP server whose app holds each response until the test ends it. */
async function gatedServer(options: Partial<AdmissionOptions> = {}) {
  const gate = admission({ limit: 2, maxWaiting: 100, maxWaitMs: 60_000, retryAfterSeconds: 2, ...options });
  const begun: string[] = [];
  const open = new Map<string, ServerResponse>();
  const app = (req: IncomingMessage, res: ServerResponse) => {
    begun.push(`${req.method} ${req.url}`);
    open.set(req.url!, res);
  };
  const server = createServer((req, res) => gate(req, res, app));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  servers.push(server);
  const port = (server.address() as AddressInfo).port;
  const send = (path: string, method = "GET") =>
    new Promise<{ status: number; headers: IncomingMessage["headers"]; body: string }>((resolve, reject) => {
      const req = httpRequest({ host: "127.0.0.1", port, path, method, agent: false }, (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (body += chunk));
        res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body }));
      });
      req.on("error", reject);
      req.end();
    });
  /** Ends the response of a request the app began, with its path as the body. */
  const finish = (path: string) => {
    const res = open.get(path);
    if (!res) throw new Error(`${path} was not begun`);
    open.delete(path);
    res.end(path);
  };
  return { gate, begun, send, finish, port };
}

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** Until `check` holds (the server works in its own turns of the loop). */
async function until(check: () => boolean) {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
  expect(check()).toBe(true);
}

const settled = (gate: Admission) => ({ inProgress: gate.inProgress, waiting: gate.waiting });

describe("page reads answered a few at a time (ADR 0077)", () => {
  it("begins at most `limit` page reads; the others begin in the order they came as each one ends", async () => {
    const { gate, begun, send, finish } = await gatedServer({ limit: 2 });
    const answers = ["/a", "/b", "/c", "/d", "/e"].map((path) => send(path));
    await until(() => begun.length === 2 && gate.waiting === 3);
    expect(begun).toEqual(["GET /a", "GET /b"]);
    finish("/b");
    await until(() => begun.length === 3);
    expect(begun[2]).toBe("GET /c");
    finish("/a");
    finish("/c");
    await until(() => begun.length === 5);
    expect(begun.slice(3)).toEqual(["GET /d", "GET /e"]);
    finish("/d");
    finish("/e");
    expect((await Promise.all(answers)).map((a) => a.body)).toEqual(["/a", "/b", "/c", "/d", "/e"]);
    await until(() => gate.inProgress === 0);
    expect(settled(gate)).toEqual({ inProgress: 0, waiting: 0 });
  });

  it("never makes a write, a probe or a file wait, and does not count them", async () => {
    const { gate, begun, send, finish } = await gatedServer({ limit: 1 });
    const page = send("/page");
    const queued = send("/queued");
    await until(() => begun.length === 1 && gate.waiting === 1);
    const others = [send("/reply", "POST"), send("/healthz"), send("/assets/app.js"), send("/media/a.webp"), send("/previews/site-0.png")];
    await until(() => begun.length === 6);
    expect(begun.slice(1)).toEqual(["POST /reply", "GET /healthz", "GET /assets/app.js", "GET /media/a.webp", "GET /previews/site-0.png"]);
    expect(settled(gate)).toEqual({ inProgress: 1, waiting: 1 });
    for (const path of ["/reply", "/healthz", "/assets/app.js", "/media/a.webp", "/previews/site-0.png", "/page"]) finish(path);
    await until(() => begun.length === 7);
    finish("/queued");
    await Promise.all([page, queued, ...others]);
  });

  it("answers 503 with Retry-After, and changes nothing, once the line is full", async () => {
    const { gate, begun, send, finish } = await gatedServer({ limit: 1, maxWaiting: 2, retryAfterSeconds: 3 });
    const kept = [send("/1"), send("/2"), send("/3")];
    await until(() => begun.length === 1 && gate.waiting === 2);
    const refused = await send("/4");
    expect(refused.status).toBe(503);
    expect(refused.headers["retry-after"]).toBe("3");
    expect(refused.body).toBe("The site is busy. Please try again in a moment.");
    expect(gate.refused).toBe(1);
    expect(begun).toEqual(["GET /1"]);
    finish("/1");
    await until(() => begun.length === 2);
    finish("/2");
    await until(() => begun.length === 3);
    finish("/3");
    expect((await Promise.all(kept)).map((a) => a.status)).toEqual([200, 200, 200]);
  });

  it("refuses a client's read past its share of the line, while others' still queue, and counts it again as its reads leave", async () => {
    const { gate, begun, send, finish } = await gatedServer({
      limit: 1,
      maxWaiting: 10,
      maxWaitingPerClient: 2,
      clientOf: (req) => (req.url!.startsWith("/greedy") ? "203.0.113.9" : "198.51.100.4"),
    });
    const answered = [send("/other-1"), send("/greedy-1"), send("/greedy-2")];
    await until(() => begun.length === 1 && gate.waiting === 2);
    // Its third read waiting would be one past its share: refused at once, nothing begun for it.
    const refused = await send("/greedy-3");
    expect([refused.status, refused.headers["retry-after"]]).toEqual([503, "2"]);
    expect(gate.refused).toBe(1);
    // Another client's read still takes its place in the line.
    answered.push(send("/other-2"));
    await until(() => gate.waiting === 3);
    finish("/other-1");
    await until(() => begun.length === 2);
    // One of its reads has left the line: it may have another waiting.
    answered.push(send("/greedy-4"));
    await until(() => gate.waiting === 3);
    for (const [path, begunAfter] of [
      ["/greedy-1", 3],
      ["/greedy-2", 4],
      ["/other-2", 5],
    ] as const) {
      finish(path);
      await until(() => begun.length === begunAfter);
    }
    finish("/greedy-4");
    expect((await Promise.all(answered)).map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    expect(begun).toEqual(["GET /other-1", "GET /greedy-1", "GET /greedy-2", "GET /other-2", "GET /greedy-4"]);
    expect([gate.refused, gate.waiting]).toEqual([1, 0]);
  });

  it("begins at most `perTurn` pages in one turn of the event loop; the rest in the turns after, in order", async () => {
    const gate = admission({ limit: 10, maxWaiting: 100, maxWaitMs: 60_000, retryAfterSeconds: 2, perTurn: 2 });
    const begun: string[] = [];
    // Pages answered where they begin, as SQLite's synchronous statements answer them.
    const answerAtOnce = (req: IncomingMessage, res: ServerResponse) => {
      begun.push(req.url!);
      res.end();
    };
    const request = (url: string) => ({ method: "GET", url, destroyed: false }) as unknown as IncomingMessage;
    const response = () => ({ destroyed: false, headersSent: false, once: () => undefined, end: () => undefined }) as unknown as ServerResponse;
    for (const url of ["/1", "/2", "/3", "/4", "/5"]) gate(request(url), response(), answerAtOnce);
    // One turn: two begun, the others wait though every place is free.
    expect(begun).toEqual(["/1", "/2"]);
    expect(settled(gate)).toEqual({ inProgress: 0, waiting: 3 });
    const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
    await nextTurn();
    expect(begun).toEqual(["/1", "/2", "/3", "/4"]);
    await nextTurn();
    expect(begun).toEqual(["/1", "/2", "/3", "/4", "/5"]);
    expect(settled(gate)).toEqual({ inProgress: 0, waiting: 0 });
    // A new turn begins its own two at once.
    await nextTurn();
    gate(request("/6"), response(), answerAtOnce);
    gate(request("/7"), response(), answerAtOnce);
    expect(begun.slice(5)).toEqual(["/6", "/7"]);
  });

  it("answers 503 to a page read that waited past maxWaitMs when its turn comes", async () => {
    let clock = 1_000;
    const { gate, begun, send, finish } = await gatedServer({ limit: 1, maxWaitMs: 500, now: () => clock });
    const first = send("/first");
    await until(() => begun.length === 1);
    const late = send("/late");
    await until(() => gate.waiting === 1);
    clock += 501;
    const fresh = send("/fresh");
    await until(() => gate.waiting === 2);
    finish("/first");
    expect((await late).status).toBe(503);
    await until(() => begun.length === 2);
    expect(begun).toEqual(["GET /first", "GET /fresh"]);
    finish("/fresh");
    expect((await first).status).toBe(200);
    expect((await fresh).status).toBe(200);
    expect(gate.refused).toBe(1);
  });

  it("gives the place back when a client goes away, whether it was answered or waiting", async () => {
    const { gate, begun, port } = await gatedServer({ limit: 1 });
    const abandon = (path: string) => {
      const req = httpRequest({ host: "127.0.0.1", port, path, agent: false });
      req.on("error", () => {});
      req.end();
      return req;
    };
    const answering = abandon("/answering");
    await until(() => begun.length === 1);
    const waiting = abandon("/waiting");
    await until(() => gate.waiting === 1);
    waiting.destroy();
    // The server hears of it in a turn of its own.
    await new Promise((resolve) => setTimeout(resolve, 50));
    answering.destroy();
    // Neither holds a place: the next read begins at once, and the one that left is never begun.
    await until(() => gate.inProgress === 0);
    abandon("/next");
    await until(() => begun.length === 2);
    expect(begun).toEqual(["GET /answering", "GET /next"]);
  });
});
