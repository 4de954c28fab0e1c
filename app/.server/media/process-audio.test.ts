import { describe, expect, it } from "vitest";
import { htmlAsPng, pdf, png, wav } from "../../../tests/factories/media";
import {
  apeTag,
  id3v1,
  id3v2,
  lyrics3,
  mp3Vbr,
  mp3WithMetadata,
  mpegFrame,
  mpegFrames,
  OGG_COMMENTS,
  oggOpus,
  oggPage,
  oggVorbis,
  SECRET,
  vbrHeaderFrame,
  wavExtensible,
  wavHeaderThenHtml,
  wavHoldingHtml,
  wavUnclosed,
  wavWithMetadata,
} from "../../../tests/factories/audio";
import { AUDIO_REFUSED, oggCrc, parseAudio, processAudio } from "./process-audio";

/** Audio checked from its own structures and stored without metadata (ADR 0044). */

const stored = (bytes: Buffer) => {
  const parsed = parseAudio(bytes);
  if (!parsed.ok) throw new Error(`refused: ${parsed.reason}`);
  return { ...parsed, bytes: Buffer.from(parsed.data) };
};
const refused = (bytes: Buffer) => {
  const parsed = parseAudio(bytes);
  return parsed.ok ? "stored" : parsed.reason;
};

/** Ogg pages as [granule, sequence, crc ok, packets' sizes]. */
function pagesOf(bytes: Buffer) {
  const pages = [];
  for (let at = 0; at < bytes.length;) {
    expect(bytes.toString("latin1", at, at + 4)).toBe("OggS");
    const count = bytes[at + 26];
    const lacing = [...bytes.subarray(at + 27, at + 27 + count)];
    const end = at + 27 + count + lacing.reduce((a, b) => a + b, 0);
    const page = Buffer.from(bytes.subarray(at, end));
    const crc = page.readUInt32LE(22);
    page.writeUInt32LE(0, 22);
    pages.push({
      end,
      granule: bytes.readBigInt64LE(at + 6),
      sequence: bytes.readUInt32LE(at + 18),
      crcOk: oggCrc(page) === crc,
      body: bytes.subarray(at + 27 + count, end),
    });
    at = end;
  }
  return pages;
}

describe("WAV", () => {
  it("keeps a plain PCM file as it is, with its duration", () => {
    const { bytes, facts } = stored(wav());
    expect(bytes.equals(wav())).toBe(true);
    expect(facts).toEqual({ contentType: "audio/wav", duration: 0.25, sampleRate: 8000, channels: 1, codec: "pcm" });
  });

  it("keeps only the RIFF header, fmt and data: LIST/INFO, bext and id3 go, and the RIFF size is rewritten", () => {
    const original = wavWithMetadata();
    expect(original.includes(SECRET)).toBe(true);
    const { bytes } = stored(original);
    expect(bytes.equals(wav())).toBe(true);
    expect(bytes.includes(SECRET)).toBe(false);
  });

  it("refuses a header followed by HTML, whatever the data chunk says", () => {
    expect(wavHoldingHtml()).toHaveLength(74);
    expect(refused(wavHoldingHtml())).toBe("markup");
    expect(refused(wavHeaderThenHtml())).toBe("the data chunk runs past the end");
  });

  it("refuses what is not whole PCM: cut to under a tenth of a second, no samples, a bad shape, bytes after the last chunk", () => {
    const whole = wav();
    // 799 samples at 8 kHz; 800 would be stored (below).
    expect(refused(whole.subarray(0, 44 + 799))).toBe("the data chunk runs past the end");
    expect(refused(wav(0))).toBe("no samples");
    expect(refused(Buffer.concat([whole, Buffer.from("junk")]))).toBe("a chunk header is cut off");
    const at = (offset: number, value: number, size: 2 | 4) => {
      const copy = Buffer.from(whole);
      if (size === 2) copy.writeUInt16LE(value, offset);
      else copy.writeUInt32LE(value, offset);
      return copy;
    };
    expect(refused(at(20, 2, 2))).toBe("not PCM or float samples"); // ADPCM
    expect(refused(at(22, 0, 2))).toBe("an impossible shape"); // no channels
    expect(refused(at(22, 40, 2))).toBe("an impossible shape");
    expect(refused(at(24, 1_000_000, 4))).toBe("an impossible shape");
    expect(refused(at(28, 16000, 4))).toBe("inconsistent sizes");
    expect(refused(at(34, 12, 2))).toBe("an impossible sample size");
    // 16-bit stereo needs 4-byte frames; 2,000 bytes are 500 of them, 2,002 bytes are not whole.
    const stereo = Buffer.concat([at(22, 2, 2).subarray(0, 44), Buffer.alloc(2002)]);
    stereo.writeUInt32LE(32000, 28);
    stereo.writeUInt16LE(4, 32);
    stereo.writeUInt16LE(16, 34);
    stereo.writeUInt32LE(2002, 40);
    stereo.writeUInt32LE(36 + 2002, 4);
    expect(refused(stereo)).toBe("a partial sample frame");
  });
});

describe("MP3", () => {
  it("keeps the MPEG frames and reads the duration from them", () => {
    const { bytes, facts } = stored(mpegFrames(40));
    expect(bytes.equals(mpegFrames(40))).toBe(true);
    expect(facts.contentType).toBe("audio/mpeg");
    expect(facts.codec).toBe("mp3");
    expect([facts.sampleRate, facts.channels]).toEqual([44100, 2]);
    expect(facts.duration).toBeCloseTo((40 * 1152) / 44100, 6);
  });

  it("drops ID3v2 (with its footer), APEv2, Lyrics3 and ID3v1, however they are combined", () => {
    const frames = mpegFrames(10);
    for (const file of [
      mp3WithMetadata(10),
      Buffer.concat([id3v2(), id3v2(), frames]),
      Buffer.concat([frames, id3v1()]),
      Buffer.concat([frames, apeTag()]),
      Buffer.concat([frames, id3v1(), apeTag()]),
      Buffer.concat([frames, lyrics3(), id3v1()]),
      Buffer.concat([frames, id3v2({ footer: true })]),
    ]) {
      expect(file.includes(SECRET)).toBe(true);
      const { bytes } = stored(file);
      expect(bytes.equals(frames)).toBe(true);
      expect(bytes.includes(SECRET)).toBe(false);
    }
  });

  it("refuses tags with no audio, a file cut to under four whole frames, bytes between frames, and a mix of streams", () => {
    expect(refused(Buffer.concat([id3v2(), id3v1()]))).toBe("no MPEG audio frame");
    expect(refused(mpegFrames(2))).toBe("too few frames");
    expect(refused(mpegFrames(4).subarray(0, 4 * 417 - 1))).toBe("too few frames");
    const frames = mpegFrames(10);
    expect(refused(Buffer.concat([frames, Buffer.from("<p>hello</p>")]))).toBe(`not a frame at byte ${frames.length}`);
    const mixed = Buffer.from(frames);
    mixed[417 * 5 + 2] = 0x94; // the sixth frame at 48 kHz
    expect(refused(mixed)).toBe("frames of different streams");
    const freeFormat = Buffer.from(frames);
    freeFormat[2] = 0x00;
    expect(refused(freeFormat)).toBe("no MPEG audio frame");
    // An ID3v2 tag that says it is longer than the file.
    const long = id3v2();
    long.set([0x7f, 0x7f, 0x7f, 0x7f], 6);
    expect(refused(Buffer.concat([long, frames]))).toBe("a tag runs past the end");
  });
});

describe("OGG", () => {
  it("empties the Vorbis comment list, keeps the vendor, the setup header and every audio page, and fixes sequence and CRC", () => {
    const original = oggVorbis();
    expect(original.includes(SECRET)).toBe(true);
    const { bytes, facts } = stored(original);
    expect(facts).toEqual({ contentType: "audio/ogg", duration: 1, sampleRate: 44100, channels: 1, codec: "vorbis" });
    expect(bytes.includes(SECRET)).toBe(false);
    expect(bytes.includes("LOCATION")).toBe(false);
    expect(bytes.includes("Test encoder 1.0")).toBe(true);
    const pages = pagesOf(bytes);
    expect(pages.map((p) => [p.sequence, p.crcOk, p.granule])).toEqual([
      [0, true, 0n],
      [1, true, 0n],
      [2, true, 22050n],
      [3, true, 44100n],
    ]);
    const before = pagesOf(original);
    expect(pages[0].body.equals(before[0].body)).toBe(true);
    expect(pages[2].body.equals(before[2].body)).toBe(true);
    expect(pages[3].body.equals(before[3].body)).toBe(true);
    // The comment packet now lists nothing, then the setup header follows unchanged.
    expect(
      pages[1].body.equals(
        Buffer.concat([
          Buffer.from("\x03vorbis", "latin1"),
          Buffer.from([16, 0, 0, 0]),
          Buffer.from("Test encoder 1.0"),
          Buffer.alloc(4),
          Buffer.from([1]),
          before[1].body.subarray(-307),
        ]),
      ),
    ).toBe(true);
    // Stored again, nothing changes.
    expect(stored(bytes).bytes.equals(bytes)).toBe(true);
  });

  it("empties the Opus tags and measures the duration after the pre-skip", () => {
    const { bytes, facts } = stored(oggOpus());
    expect(facts).toEqual({ contentType: "audio/ogg", duration: 1, sampleRate: 48000, channels: 2, codec: "opus" });
    expect(bytes.includes(SECRET)).toBe(false);
    const pages = pagesOf(bytes);
    expect(pages.every((p) => p.crcOk)).toBe(true);
    expect(pages[1].body.equals(Buffer.concat([Buffer.from("OpusTags"), Buffer.from([16, 0, 0, 0]), Buffer.from("Test encoder 1.0"), Buffer.alloc(4)]))).toBe(
      true,
    );
  });

  it("re-pages a comment header longer than one page and renumbers the pages after it", () => {
    const many = [...OGG_COMMENTS, ...Array.from({ length: 400 }, (_, i) => `COMMENT=${SECRET} ${i} ${"x".repeat(200)}`)];
    const original = splitVorbis(many);
    const before = pagesOf(original);
    expect(before).toHaveLength(4);
    expect(before.every((p) => p.crcOk)).toBe(true);
    const { bytes, facts } = stored(original);
    expect(facts.duration).toBe(1);
    expect(bytes.includes(SECRET)).toBe(false);
    // Identification, the emptied comment with the setup header, then the audio page renumbered.
    const out = pagesOf(bytes);
    expect(out.map((p) => [p.sequence, p.crcOk, p.granule])).toEqual([
      [0, true, 0n],
      [1, true, 0n],
      [2, true, 44100n],
    ]);
    expect(out[2].body.equals(before.at(-1)!.body)).toBe(true);
  });

  it("refuses a bad checksum, a truncated page, no audio, no duration, a second stream and other codecs", () => {
    const vorbis = oggVorbis();
    const flipped = Buffer.from(vorbis);
    flipped[vorbis.length - 10] ^= 1;
    expect(refused(flipped)).toMatch(/^a bad checksum at byte \d+$/);
    // Cut inside its only audio page, or inside the headers, nothing whole is left to play.
    expect(refused(oggOpus().subarray(0, oggOpus().length - 5))).toBe("a page is cut off");
    expect(refused(vorbis.subarray(0, pagesOf(vorbis)[1].end - 5))).toBe("a page is cut off");
    expect(refused(Buffer.concat([vorbis, Buffer.from("<html>")]))).toMatch(/^no page at byte/);
    const headersOnly = vorbis.subarray(0, pagesOf(vorbis)[1].end);
    expect(refused(headersOnly)).toBe("no audio pages");
    const opus = oggOpus();
    const silent = Buffer.concat([
      opus.subarray(0, pagesOf(opus)[1].end),
      oggPage([Buffer.alloc(80, 3), Buffer.alloc(80, 4)], { sequence: 2, granule: 312n, flags: 4 }),
    ]);
    expect(refused(silent)).toBe("no duration");
    const second = Buffer.concat([opus, oggPage([Buffer.alloc(10)], { sequence: 0, flags: 2, serial: 99 })]);
    expect(refused(second)).toBe("not one stream");
    const speex = oggPage([Buffer.from("Speex   1.2".padEnd(80, "\0"))], { sequence: 0, flags: 2 });
    expect(refused(Buffer.concat([speex, oggPage([Buffer.alloc(10)], { sequence: 1, granule: 100n })]))).toBe("neither Vorbis nor Opus");
  });
});

describe("files as real recorders, encoders and downloads leave them", () => {
  const riff = (...chunks: Buffer[]) => {
    const body = Buffer.concat([Buffer.from("WAVE"), ...chunks]);
    const head = Buffer.alloc(8);
    head.write("RIFF");
    head.writeUInt32LE(body.length, 4);
    return Buffer.concat([head, body]);
  };
  const riffChunk = (id: string, body: Buffer, pad = true) => {
    const head = Buffer.alloc(8);
    head.write(id, "latin1");
    head.writeUInt32LE(body.length, 4);
    return Buffer.concat(pad && body.length % 2 ? [head, body, Buffer.alloc(1)] : [head, body]);
  };
  const fmtOf = (file: Buffer) => file.subarray(20, 36);
  const samplesOf = (file: Buffer) => file.subarray(44);

  it("WAV: a data size of 0xFFFFFFFF, or larger than what is left, keeps the whole samples there and stores true sizes", () => {
    const { bytes, facts } = stored(wavUnclosed());
    expect(bytes.equals(wav())).toBe(true);
    expect(facts.duration).toBe(0.25);
    // Cut at 800 samples (a tenth of a second), the sizes still saying 2,000.
    expect(stored(wav().subarray(0, 44 + 800)).bytes.equals(wav(800))).toBe(true);
    // 16-bit stereo cut inside a sample frame: the partial frame goes.
    const stereo = wavExtensible("pcm", 2000);
    const cut = stored(stereo.subarray(0, stereo.length - 4 * 1000 - 3));
    expect(cut.facts.duration).toBe(999 / 8000);
    expect(cut.bytes.readUInt32LE(4)).toBe(cut.bytes.length - 8);
    expect(cut.bytes.readUInt32LE(cut.bytes.length - 999 * 4 - 4)).toBe(999 * 4);
    // Only data may run on: another chunk that does is refused.
    expect(refused(riff(riffChunk("fmt ", fmtOf(wav())), riffChunk("LIST", Buffer.alloc(40)).subarray(0, 30)))).toBe("the LIST chunk runs past the end");
  });

  it("WAV: odd-sized chunks with their pad byte, and a last odd chunk without it", () => {
    const odd = wav(1999);
    const list = riffChunk("LIST", Buffer.from(`INFOIART${SECRET}`)); // 29 bytes, then a pad byte
    expect(refused(riff(riffChunk("fmt ", fmtOf(odd)), list, riffChunk("data", samplesOf(odd))))).toBe("stored");
    expect(refused(riff(riffChunk("fmt ", fmtOf(odd)), riffChunk("data", samplesOf(odd)), list))).toBe("stored");
    // The factory writes 1,999 samples with no pad byte: stored with one, which the RIFF size counts.
    const { bytes } = stored(odd);
    expect(bytes.length).toBe(odd.length + 1);
    expect(bytes.readUInt32LE(4)).toBe(bytes.length - 8);
    expect(bytes.subarray(8, odd.length).equals(odd.subarray(8))).toBe(true);
    expect(stored(bytes).bytes.equals(bytes)).toBe(true);
  });

  it("WAV: WAVE_FORMAT_EXTENSIBLE holding PCM or float, not another sub-format", () => {
    expect(stored(wavExtensible("pcm")).facts).toEqual({ contentType: "audio/wav", duration: 0.25, sampleRate: 8000, channels: 2, codec: "pcm" });
    expect(stored(wavExtensible("float")).facts.codec).toBe("float");
    expect(stored(wavExtensible("pcm")).bytes.equals(wavExtensible("pcm"))).toBe(true);
    expect(refused(wavExtensible("adpcm"))).toBe("not PCM or float samples");
  });

  it("MP3: a file cut inside its last frame, or inside the last frame's header, loses only that frame", () => {
    const frames = mpegFrames(10);
    for (const cut of [frames.length - 1, frames.length - 300, 9 * 417 + 3, 9 * 417 + 1]) {
      const { bytes, facts } = stored(Buffer.concat([id3v2(), frames.subarray(0, cut)]));
      expect(bytes.equals(mpegFrames(9)), `cut at ${cut}`).toBe(true);
      expect(facts.duration).toBeCloseTo((9 * 1152) / 44100, 6);
    }
    // What follows the last whole frame must be the start of one: HTML after it is still refused.
    expect(refused(Buffer.concat([frames, Buffer.from("<p>")]))).toBe(`not a frame at byte ${frames.length}`);
  });

  it("MP3: zero padding or junk before the first frame and zero padding after the last go", () => {
    const frames = mpegFrames(10);
    // A tag that says it is shorter than it is leaves its tail (with its text) before the frames.
    const short = id3v2();
    short.set([0, 0, 0, 5], 6);
    const fakeSync = Buffer.concat([Buffer.from([0xff, 0xfb, 0x90, 0x00]), Buffer.alloc(100, 1)]);
    for (const file of [
      Buffer.concat([id3v2(), Buffer.alloc(2048), frames]),
      Buffer.concat([Buffer.alloc(1000), frames]),
      Buffer.concat([short, frames]),
      Buffer.concat([Buffer.from("<html><script>x</script>"), frames.subarray(200)]),
      Buffer.concat([fakeSync, frames]),
      Buffer.concat([frames, Buffer.alloc(3000)]),
      Buffer.concat([id3v2(), Buffer.alloc(77), frames, Buffer.alloc(500), id3v1()]),
    ]) {
      const { bytes } = stored(file);
      expect(bytes.equals(file.includes("<html>") ? mpegFrames(9) : frames)).toBe(true);
      expect(bytes.includes(SECRET)).toBe(false);
    }
    // The search stops after 64 KB; zeros then junk after the last frame are not padding.
    expect(refused(Buffer.concat([Buffer.alloc(64 * 1024, 0x20), frames]))).toBe("no MPEG audio frame");
    expect(refused(Buffer.concat([frames, Buffer.alloc(10), Buffer.from("<html>")]))).toBe(`not a frame at byte ${frames.length}`);
  });

  it("MP3: Xing, Info (with LAME's tag) and VBRI header frames, VBR bitrates and stereo modes that change frame to frame", () => {
    for (const kind of ["Xing", "Info", "VBRI"] as const) {
      const file = Buffer.concat([vbrHeaderFrame(kind, 10, 4170), mpegFrames(10)]);
      const { bytes, facts } = stored(file);
      expect(bytes.equals(file), kind).toBe(true);
      expect(facts.duration).toBeCloseTo((11 * 1152) / 44100, 6);
    }
    const vbr = mp3Vbr(30);
    const { bytes, facts } = stored(Buffer.concat([id3v2(), vbr, id3v1()]));
    expect(bytes.equals(vbr)).toBe(true);
    expect([facts.channels, facts.duration]).toEqual([2, (31 * 1152) / 44100]);
    // Two channels to one is another stream.
    expect(refused(Buffer.concat([mpegFrames(5), mpegFrame({ mode: "mono" }), mpegFrames(5)]))).toBe("frames of different streams");
  });

  it("OGG: a file cut inside its last page loses that page when whole audio pages remain", () => {
    const vorbis = oggVorbis();
    const pages = pagesOf(vorbis);
    for (const cut of [vorbis.length - 5, pages[2].end + 30, pages[2].end + 3]) {
      const { bytes, facts } = stored(vorbis.subarray(0, cut));
      expect(facts.duration, `cut at ${cut}`).toBe(0.5);
      expect(pagesOf(bytes).map((p) => [p.sequence, p.crcOk, p.granule])).toEqual([
        [0, true, 0n],
        [1, true, 0n],
        [2, true, 22050n],
      ]);
    }
    // What follows the last whole page must be the start of one.
    expect(refused(Buffer.concat([vorbis.subarray(0, pages[2].end), Buffer.from("Ogx")]))).toBe(`no page at byte ${pages[2].end}`);
  });
});

describe("damaged files", () => {
  it("are refused, never thrown on: every truncation and thousands of flipped bytes of each format", () => {
    let seed = 25;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (const file of [
      wavWithMetadata(200),
      wavExtensible("pcm", 100),
      mp3WithMetadata(6),
      Buffer.concat([Buffer.alloc(50), mp3Vbr(6)]),
      oggVorbis(),
      oggOpus(),
    ]) {
      for (let length = 0; length < file.length; length++) expect(() => parseAudio(file.subarray(0, length))).not.toThrow();
      for (let i = 0; i < 2000; i++) {
        const copy = Buffer.from(file);
        for (let k = 0; k < 3; k++) copy[Math.floor(random() * copy.length)] = Math.floor(random() * 256);
        expect(() => parseAudio(copy)).not.toThrow();
      }
    }
  });
});

describe("processAudio", () => {
  it("names what it keeps by its type and refuses everything else with the audio message", async () => {
    for (const [file, type, ext] of [
      [wavWithMetadata(), "audio/wav", "wav"],
      [mp3WithMetadata(), "audio/mpeg", "mp3"],
      [oggVorbis(), "audio/ogg", "ogg"],
    ] as const) {
      const result = await processAudio(file);
      expect(result.ok && result.value.contentType).toBe(type);
      expect(result.ok && result.value.name).toMatch(new RegExp(`^[0-9a-f]{32}\\.${ext}$`));
      expect(result.ok && Buffer.from(result.value.data).includes(SECRET)).toBe(false);
    }
    for (const file of [wavHoldingHtml(), wavHeaderThenHtml(), pdf(), htmlAsPng(), await png(), Buffer.alloc(0), Buffer.from("ID3")]) {
      expect(await processAudio(file)).toEqual({ ok: false, message: AUDIO_REFUSED });
    }
  });
});

/** A Vorbis stream whose comment header spans several pages, as an encoder pages it. */
function splitVorbis(comments: string[]) {
  const one = oggVorbis(comments.slice(0, 1));
  const [idPage] = [one.subarray(0, 27 + 1 + 30)];
  const vendor = Buffer.from("Test encoder 1.0");
  const u32 = (n: number) => {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(n);
    return b;
  };
  const comment = Buffer.concat([
    Buffer.from("\x03vorbis", "latin1"),
    u32(vendor.length),
    vendor,
    u32(comments.length),
    ...comments.flatMap((c) => [u32(Buffer.byteLength(c)), Buffer.from(c)]),
    Buffer.from([1]),
  ]);
  const setup = Buffer.concat([Buffer.from("\x05vorbis", "latin1"), Buffer.alloc(300, 0x42)]);
  // Lay both packets over pages of at most 255 lacing values.
  const pages: Buffer[] = [];
  const segments: { bytes: Buffer; ends: boolean }[] = [];
  for (const packet of [comment, setup]) {
    for (let at = 0; ; at += 255) {
      const part = packet.subarray(at, at + 255);
      segments.push({ bytes: part, ends: part.length < 255 });
      if (part.length < 255) break;
    }
  }
  let sequence = 1;
  let continued = false;
  for (let i = 0; i < segments.length; i += 255) {
    const slice = segments.slice(i, i + 255);
    const head = Buffer.alloc(27);
    head.write("OggS", 0, "latin1");
    head[5] = continued ? 1 : 0;
    head.writeBigInt64LE(slice.some((s) => s.ends) ? 0n : -1n, 6);
    head.writeUInt32LE(0x1234, 14);
    head.writeUInt32LE(sequence++, 18);
    head[26] = slice.length;
    const page = Buffer.concat([head, Buffer.from(slice.map((s) => s.bytes.length)), ...slice.map((s) => s.bytes)]);
    page.writeUInt32LE(oggCrc(page), 22);
    pages.push(page);
    continued = !slice.at(-1)!.ends;
  }
  const audio = oggPage([Buffer.alloc(100, 5)], { sequence: sequence, granule: 44100n, flags: 4 });
  return Buffer.concat([idPage, ...pages, audio]);
}
