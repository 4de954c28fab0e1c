import { describe, expect, it } from "vitest";
import { coalescingStream } from "./coalescing-stream";

function collect(stream: NodeJS.ReadableStream) {
  const chunks: Buffer[] = [];
  stream.on("data", (c: Buffer) => chunks.push(c));
  return { chunks, ended: new Promise<void>((resolve) => stream.on("end", () => resolve())) };
}

describe("coalescingStream", () => {
  it("joins the writes of one turn into one chunk, byte for byte", async () => {
    const stream = coalescingStream();
    const { chunks, ended } = collect(stream);
    const parts = Array.from({ length: 60 }, (_, i) => `<p>part ${i} ${"é".repeat(i)}</p>`);
    for (const part of parts) stream.write(part);
    stream.end();
    await ended;
    expect(chunks).toHaveLength(1);
    expect(Buffer.concat(chunks).toString()).toBe(parts.join(""));
  });

  it("still streams: a write in a later turn goes out on its own, before the end", async () => {
    const stream = coalescingStream();
    const { chunks, ended } = collect(stream);
    stream.write("<html>");
    stream.write("<body>shell");
    await new Promise((r) => setTimeout(r, 10));
    expect(chunks.map(String)).toEqual(["<html><body>shell"]);
    stream.write("<template>late</template>");
    await new Promise((r) => setTimeout(r, 10));
    expect(chunks.map(String)).toEqual(["<html><body>shell", "<template>late</template>"]);
    stream.end("</html>");
    await ended;
    expect(chunks.map(String)).toEqual(["<html><body>shell", "<template>late</template>", "</html>"]);
  });

  it("lets a very large turn out in pieces of at least 256 KB, and runs final before it finishes", async () => {
    let finalRan = false;
    const stream = coalescingStream({
      final(callback) {
        finalRan = true;
        callback();
      },
    });
    const { chunks, ended } = collect(stream);
    const piece = Buffer.alloc(2048, 97);
    for (let i = 0; i < 300; i++) stream.write(piece);
    stream.end();
    await ended;
    expect(finalRan).toBe(true);
    expect(chunks.length).toBe(3);
    expect(chunks[0]!.length).toBe(256 * 1024);
    expect(Buffer.concat(chunks).length).toBe(300 * 2048);
  });
});
