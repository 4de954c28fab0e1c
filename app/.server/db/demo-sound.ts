/**
 * The demo's Music creation needs something to play, and no recording can ship with the code, so a
 * short tune is synthesized: five plucked notes of a pentatonic phrase (a rising line that comes
 * home), each a sine with its octave, a quick attack and an exponential fade, as a plain WAV
 * (8 kHz, mono, 16-bit; about 4 seconds, 64 KB). Pure arithmetic, no randomness: every seeding
 * writes the same bytes.
 */

export const DEMO_SOUND_RATE = 8000;

/** [frequency in Hz, start in seconds, length in seconds]: A3 C4 D4 E4, then A3 held. */
const NOTES: readonly (readonly [number, number, number])[] = [
  [220.0, 0.0, 0.9],
  [261.63, 0.6, 0.9],
  [293.66, 1.2, 0.9],
  [329.63, 1.8, 0.9],
  [220.0, 2.4, 1.6],
];

export const DEMO_SOUND_SECONDS = 4;

/** Peak level of one note; overlapping tails stay below full scale (checked by the unit test). */
const LEVEL = 0.45;
const ATTACK_SECONDS = 0.01;
const DECAY_PER_SECOND = 3.5;

export function demoSoundWav(): Buffer {
  const frames = DEMO_SOUND_RATE * DEMO_SOUND_SECONDS;
  const samples = new Float64Array(frames);
  for (const [frequency, start, length] of NOTES) {
    const first = Math.round(start * DEMO_SOUND_RATE);
    const count = Math.min(Math.round(length * DEMO_SOUND_RATE), frames - first);
    for (let i = 0; i < count; i++) {
      const t = i / DEMO_SOUND_RATE;
      const attack = Math.min(1, t / ATTACK_SECONDS);
      // The last 20 ms fade to zero, so a note never ends on a click.
      const release = Math.min(1, (count - i) / (0.02 * DEMO_SOUND_RATE));
      const envelope = attack * release * Math.exp(-DECAY_PER_SECOND * t);
      const phase = 2 * Math.PI * frequency * t;
      samples[first + i] += LEVEL * envelope * (0.8 * Math.sin(phase) + 0.2 * Math.sin(2 * phase));
    }
  }

  const dataBytes = frames * 2;
  const wav = Buffer.alloc(44 + dataBytes);
  wav.write("RIFF", 0, "latin1");
  wav.writeUInt32LE(36 + dataBytes, 4);
  wav.write("WAVE", 8, "latin1");
  wav.write("fmt ", 12, "latin1");
  wav.writeUInt32LE(16, 16);
  wav.writeUInt16LE(1, 20); // PCM
  wav.writeUInt16LE(1, 22); // mono
  wav.writeUInt32LE(DEMO_SOUND_RATE, 24);
  wav.writeUInt32LE(DEMO_SOUND_RATE * 2, 28); // byte rate
  wav.writeUInt16LE(2, 32); // block align
  wav.writeUInt16LE(16, 34); // bits per sample
  wav.write("data", 36, "latin1");
  wav.writeUInt32LE(dataBytes, 40);
  for (let i = 0; i < frames; i++) {
    const clamped = Math.max(-1, Math.min(1, samples[i]));
    wav.writeInt16LE(Math.round(clamped * 32767), 44 + i * 2);
  }
  return wav;
}
