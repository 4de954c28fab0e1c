import { describe, expect, it } from "vitest";
import { parseAudio, processAudio } from "../media/process-audio";
import { DEMO_SOUND_RATE, demoSoundWav } from "./demo-sound";

/** The samples of a 16-bit mono WAV with a 44-byte header, as -1..1. */
function samplesOf(wav: Buffer) {
  const out: number[] = [];
  for (let at = 44; at < wav.length; at += 2) out.push(wav.readInt16LE(at) / 32768);
  return out;
}

/** Power at one frequency over a stretch of samples (Goertzel). */
function power(samples: number[], from: number, length: number, frequency: number) {
  const k = 2 * Math.cos((2 * Math.PI * frequency) / DEMO_SOUND_RATE);
  let s1 = 0;
  let s2 = 0;
  for (let i = from; i < from + length; i++) {
    const s = samples[i] + k * s1 - s2;
    s2 = s1;
    s1 = s;
  }
  return s1 * s1 + s2 * s2 - k * s1 * s2;
}

describe("the demo's Music sound", () => {
  it("is a small, clean WAV that the upload pipeline stores as it is", async () => {
    const wav = demoSoundWav();
    expect(wav.length).toBeLessThan(70_000);
    const parsed = parseAudio(wav);
    if (!parsed.ok) throw new Error(`refused: ${parsed.reason}`);
    expect(parsed.facts).toEqual({ contentType: "audio/wav", duration: 4, sampleRate: 8000, channels: 1, codec: "pcm" });
    expect(Buffer.from(parsed.data).equals(wav)).toBe(true);
    const processed = await processAudio(wav);
    expect(processed.ok && processed.value.contentType).toBe("audio/wav");
  });

  it("is the same bytes every time (seeding stays deterministic)", () => {
    expect(demoSoundWav().equals(demoSoundWav())).toBe(true);
  });

  it("is audible, never clips, and plays its notes in order: A3, C4, D4, E4, then A3 again", () => {
    const samples = samplesOf(demoSoundWav());
    const peak = Math.max(...samples.map(Math.abs));
    expect(peak).toBeGreaterThan(0.3);
    expect(peak).toBeLessThan(0.99);
    const notes = [220, 261.63, 293.66, 329.63];
    const window = 0.25 * DEMO_SOUND_RATE;
    // Each note's first quarter second, just after its onset: its own pitch is the loudest of the four.
    for (const [start, expected] of [
      [0.0, 220],
      [0.6, 261.63],
      [1.2, 293.66],
      [1.8, 329.63],
      [2.4, 220],
    ] as const) {
      const from = Math.round((start + 0.02) * DEMO_SOUND_RATE);
      const loudest = notes.reduce((best, f) => (power(samples, from, window, f) > power(samples, from, window, best) ? f : best));
      expect(loudest, `at ${start} s`).toBe(expected);
    }
    // It fades out: the last tenth of a second is near silence.
    expect(Math.max(...samples.slice(-DEMO_SOUND_RATE / 10).map(Math.abs))).toBeLessThan(0.05);
  });
});
