import { mediaName, type NewMedia } from "./media-store";

/**
 * Audio is checked from its own structures and stored without its metadata (ADR 0044), as images
 * are re-encoded without theirs. Nothing is decoded to samples; each container is walked from its
 * first byte to its last, and what is kept is only what a player needs:
 * - WAV: the RIFF header, `fmt ` and `data` (LIST/INFO, `id3 `, `bext` and the like go);
 * - MP3: the MPEG audio frames (ID3v2, ID3v1, APEv2 and Lyrics3 tags go);
 * - OGG (Vorbis or Opus): every page, with the comment header emptied (the vendor string stays).
 * A file that does not walk cleanly (a header followed by something else, bytes after the audio,
 * an impossible rate or channel count, no duration) is refused. What real recorders, encoders and
 * cut downloads leave is not: a file cut short keeps its whole frames, pages or samples; an
 * unclosed WAV's sizes are rewritten; zero padding (and, in MP3, up to 64 KB of anything before
 * the first frames) goes. The work is one pass over at most the 20 MB the upload limit lets
 * through, plus a bounded search for the first MP3 frame.
 */

export type Processed<T> = { ok: true; value: T } | { ok: false; message: string };

export const AUDIO_REFUSED = "Choose an MP3, OGG or WAV audio file.";

export interface AudioFacts {
  contentType: "audio/mpeg" | "audio/ogg" | "audio/wav";
  /** Seconds. */
  duration: number;
  sampleRate: number;
  channels: number;
  codec: "pcm" | "float" | "mp1" | "mp2" | "mp3" | "vorbis" | "opus";
}

/** What parsing gives: the bytes to store and what they are, or why they are refused. */
export type ParsedAudio = { ok: true; data: Uint8Array; facts: AudioFacts } | { ok: false; reason: string };

export async function processAudio(bytes: Buffer): Promise<Processed<Omit<NewMedia, "ownerId">>> {
  let parsed: ParsedAudio;
  try {
    parsed = parseAudio(bytes);
  } catch {
    // The parsers check every offset they read; should one still fall off the end, the file is refused, not a 500.
    parsed = refuse("unreadable");
  }
  if (!parsed.ok) return { ok: false, message: AUDIO_REFUSED };
  const { contentType } = parsed.facts;
  return { ok: true, value: { name: mediaName(contentType), contentType, data: parsed.data } };
}

export function parseAudio(input: Uint8Array): ParsedAudio {
  const bytes = Buffer.from(input.buffer, input.byteOffset, input.byteLength);
  let parsed: ParsedAudio;
  if (bytes.length >= 12 && ascii(bytes, 0, 4) === "RIFF" && ascii(bytes, 8, 4) === "WAVE") parsed = parseWav(bytes);
  else if (bytes.length >= 4 && ascii(bytes, 0, 4) === "OggS") parsed = parseOgg(bytes);
  else parsed = parseMp3(bytes);
  if (!parsed.ok) return parsed;
  if (!(parsed.facts.duration > 0)) return refuse("no duration");
  // A polyglot (markup where the first samples should be) is refused, in the 1,445 bytes a browser
  // would sniff; audio that happens to hold these bytes there is vanishingly unlikely.
  if (MARKUP.test(Buffer.from(parsed.data.buffer, parsed.data.byteOffset, Math.min(parsed.data.byteLength, SNIFF_WINDOW)).toString("latin1"))) {
    return refuse("markup");
  }
  return parsed;
}

const SNIFF_WINDOW = 1445;

const MARKUP = /<(?:script|html|!doctype|svg|iframe|body|object|embed|\?xml)[\s>/]/i;

const refuse = (reason: string): ParsedAudio => ({ ok: false, reason });
/** A fresh buffer as a plain Uint8Array, without copying it again. */
const view = (buffer: Buffer) => new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
const ascii = (bytes: Buffer, start: number, length: number) => bytes.toString("latin1", start, start + length);

// WAV -------------------------------------------------------------------------------------------

const WAVE_PCM = 1;
const WAVE_FLOAT = 3;
const WAVE_EXTENSIBLE = 0xfffe;
const MIN_CUT_SECONDS = 0.1;

function parseWav(bytes: Buffer): ParsedAudio {
  let fmt: Buffer | undefined;
  let data: Buffer | undefined;
  let cut = false;
  let at = 12;
  // The chunks must tile the file: bytes after the last chunk, or a chunk other than `data` that runs
  // past the end, refuse it.
  while (at < bytes.length) {
    if (at + 8 > bytes.length) return refuse("a chunk header is cut off");
    const id = ascii(bytes, at, 4);
    const size = bytes.readUInt32LE(at + 4);
    let end = at + 8 + size;
    if (end > bytes.length) {
      // A recorder that never closed its file leaves 0xFFFFFFFF or a stale size here, and a cut
      // download ends early: the samples that are there are used, and the sizes are rewritten.
      if (id !== "data") return refuse(`the ${id} chunk runs past the end`);
      cut = true;
      end = bytes.length;
    }
    if (id === "fmt ") fmt ??= bytes.subarray(at + 8, end);
    else if (id === "data") {
      if (data) return refuse("two data chunks");
      data = bytes.subarray(at + 8, end);
    }
    // Chunks are padded to an even length; the last pad byte may be missing.
    at = end + (size % 2 === 1 && end < bytes.length ? 1 : 0);
  }
  if (!fmt || fmt.length < 16) return refuse("no fmt chunk");
  if (!data || data.length === 0) return refuse("no samples");
  let format = fmt.readUInt16LE(0);
  const channels = fmt.readUInt16LE(2);
  const sampleRate = fmt.readUInt32LE(4);
  const byteRate = fmt.readUInt32LE(8);
  const blockAlign = fmt.readUInt16LE(12);
  const bits = fmt.readUInt16LE(14);
  if (format === WAVE_EXTENSIBLE) {
    // The sub-format GUID's first two bytes are the format code.
    if (fmt.length < 40) return refuse("a short extensible fmt chunk");
    format = fmt.readUInt16LE(24);
  }
  if (format !== WAVE_PCM && format !== WAVE_FLOAT) return refuse("not PCM or float samples");
  const sizes = format === WAVE_PCM ? [8, 16, 24, 32] : [32, 64];
  if (!sizes.includes(bits)) return refuse("an impossible sample size");
  if (!saneChannels(channels) || !saneRate(sampleRate)) return refuse("an impossible shape");
  if (blockAlign !== (channels * bits) / 8 || byteRate !== sampleRate * blockAlign) return refuse("inconsistent sizes");
  if (cut) {
    data = data.subarray(0, data.length - (data.length % blockAlign));
    // A header with a few bytes after it is not a recording that was cut short: it needs a tenth of a second.
    if (data.length / blockAlign / sampleRate < MIN_CUT_SECONDS) return refuse("the data chunk runs past the end");
  } else if (data.length % blockAlign !== 0) return refuse("a partial sample frame");

  const fmtChunk = chunk("fmt ", fmt);
  const dataChunk = chunk("data", data);
  const header = Buffer.alloc(12);
  header.write("RIFF", 0, "latin1");
  header.writeUInt32LE(4 + fmtChunk.length + dataChunk.length, 4);
  header.write("WAVE", 8, "latin1");
  return {
    ok: true,
    data: view(Buffer.concat([header, fmtChunk, dataChunk])),
    facts: { contentType: "audio/wav", duration: data.length / blockAlign / sampleRate, sampleRate, channels, codec: format === WAVE_PCM ? "pcm" : "float" },
  };
}

function chunk(id: string, body: Buffer) {
  const head = Buffer.alloc(8);
  head.write(id, 0, "latin1");
  head.writeUInt32LE(body.length, 4);
  return Buffer.concat(body.length % 2 === 1 ? [head, body, Buffer.alloc(1)] : [head, body]);
}

const saneChannels = (channels: number) => channels >= 1 && channels <= 8;
const saneRate = (rate: number) => rate >= 8000 && rate <= 192_000;

// MP3 -------------------------------------------------------------------------------------------

// Index 1..14 of the bitrate field, in kbit/s, by [MPEG-1?][layer 1, 2, 3].
const BITRATES = {
  v1: [
    [32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448],
    [32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384],
    [32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
  ],
  v2: [
    [32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256],
    [8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
    [8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
  ],
};
const RATES = { 3: [44100, 48000, 32000], 2: [22050, 24000, 16000], 0: [11025, 12000, 8000] } as Record<number, number[]>;

interface Frame {
  version: number;
  layer: number;
  sampleRate: number;
  mono: boolean;
  length: number;
  samples: number;
}

/** The MPEG audio frame header at `at`, or null when these four bytes are not one. */
export function frameAt(bytes: Buffer, at: number): Frame | null {
  if (at + 4 > bytes.length) return null;
  const header = bytes.readUInt32BE(at);
  if (header >>> 21 !== 0x7ff) return null;
  const version = (header >>> 19) & 3; // 3: MPEG-1, 2: MPEG-2, 0: MPEG-2.5
  const layerBits = (header >>> 17) & 3;
  const bitrateIndex = (header >>> 12) & 15;
  const rateIndex = (header >>> 10) & 3;
  const padding = (header >>> 9) & 1;
  const mode = (header >>> 6) & 3;
  // Reserved version, layer, rate; free-format and forbidden bitrates.
  if (version === 1 || layerBits === 0 || rateIndex === 3 || bitrateIndex === 0 || bitrateIndex === 15) return null;
  const layer = 4 - layerBits;
  const bitrate = BITRATES[version === 3 ? "v1" : "v2"][layer - 1][bitrateIndex - 1] * 1000;
  const sampleRate = RATES[version][rateIndex];
  let length: number;
  let samples: number;
  if (layer === 1) {
    length = (Math.floor((12 * bitrate) / sampleRate) + padding) * 4;
    samples = 384;
  } else if (layer === 2 || version === 3) {
    length = Math.floor((144 * bitrate) / sampleRate) + padding;
    samples = 1152;
  } else {
    length = Math.floor((72 * bitrate) / sampleRate) + padding;
    samples = 576;
  }
  return { version, layer, sampleRate, mono: mode === 3, length, samples };
}

/** Fewer whole frames than this (a tenth of a second or so) are not a recording, only sync bytes followed by anything. */
const MIN_FRAMES = 4;
/** How far past the tags the first frame is looked for: zero padding, or a tag that misstates its size. */
const MP3_SEARCH = 64 * 1024;

function parseMp3(bytes: Buffer): ParsedAudio {
  const audio = withoutMp3Tags(bytes);
  if (!audio) return refuse("a tag runs past the end");
  const head = audio.length >= 4 ? audio.readUInt32BE(0) : 0;
  // A free-format first frame is a free-format stream, which is refused rather than searched past.
  if (head >>> 21 === 0x7ff && ((head >>> 12) & 15) === 0) return refuse("no MPEG audio frame");
  // The audio starts at the first of MIN_FRAMES frames that follow one another; what comes before
  // it goes. With no such run, the walk starts at the start and is refused where it breaks.
  const start = firstRun(audio) ?? 0;
  const first = frameAt(audio, start);
  if (!first) return refuse("no MPEG audio frame");
  let at = start;
  let frames = 0;
  while (at < audio.length) {
    const frame = frameAt(audio, at);
    if (!frame) {
      // Zero padding after the last frame, or a file cut inside the next frame's header, ends the audio.
      if (isZeros(audio, at) || (audio.length - at < 4 && cutHeader(audio, at, start))) break;
      return refuse(`not a frame at byte ${at}`);
    }
    // Every frame follows the last, in the stream's own version, layer, rate and channel count.
    if (!sameStream(frame, first)) return refuse("frames of different streams");
    // A file cut short (a broken download, an editor) loses its partial last frame.
    if (at + frame.length > audio.length) break;
    at += frame.length;
    frames += 1;
  }
  if (frames < MIN_FRAMES) return refuse("too few frames");
  const codec = (["mp1", "mp2", "mp3"] as const)[first.layer - 1];
  return {
    ok: true,
    data: new Uint8Array(audio.subarray(start, at)),
    facts: {
      contentType: "audio/mpeg",
      duration: (frames * first.samples) / first.sampleRate,
      sampleRate: first.sampleRate,
      channels: first.mono ? 1 : 2,
      codec,
    },
  };
}

/** Stereo, joint stereo and dual channel are one shape (two channels); the bitrate may vary (VBR). */
const sameStream = (a: Frame, b: Frame) => a.version === b.version && a.layer === b.layer && a.sampleRate === b.sampleRate && a.mono === b.mono;

/** The last one to three bytes begin a header as the first frame's does (its third byte varies with the bitrate). */
const cutHeader = (bytes: Buffer, at: number, first: number) => bytes[at] === bytes[first] && (at + 1 === bytes.length || bytes[at + 1] === bytes[first + 1]);

const isZeros = (bytes: Buffer, from: number) => {
  for (let i = from; i < bytes.length; i++) if (bytes[i] !== 0) return false;
  return true;
};

/** The first offset within MP3_SEARCH bytes where MIN_FRAMES frames of one stream follow one another. */
function firstRun(audio: Buffer): number | undefined {
  const limit = Math.min(audio.length, MP3_SEARCH);
  for (let at = 0; at < limit; at++) {
    if (audio[at] !== 0xff) continue;
    const first = frameAt(audio, at);
    if (!first) continue;
    let next = at;
    let run = 0;
    for (let frame: Frame | null = first; frame && sameStream(frame, first) && run < MIN_FRAMES; frame = frameAt(audio, next)) {
      next += frame.length;
      run += 1;
    }
    if (run === MIN_FRAMES) return at;
  }
  return undefined;
}

const synchsafe = (bytes: Buffer, at: number) =>
  ((bytes[at] & 0x7f) << 21) | ((bytes[at + 1] & 0x7f) << 14) | ((bytes[at + 2] & 0x7f) << 7) | (bytes[at + 3] & 0x7f);

/**
 * The MPEG frames between the tags: ID3v2 tags at the start (with a footer when flagged); ID3v1,
 * Lyrics3 (v1 and v2), APEv2 and an appended ID3v2 (found by its "3DI" footer) at the end, in any
 * order. Null when a tag says it is longer than the file.
 */
export function withoutMp3Tags(bytes: Buffer): Buffer | null {
  let start = 0;
  while (start + 10 <= bytes.length && ascii(bytes, start, 3) === "ID3") {
    const footer = (bytes[start + 5] & 0x10) !== 0 ? 10 : 0;
    start += 10 + synchsafe(bytes, start + 6) + footer;
    if (start > bytes.length) return null;
  }
  let end = bytes.length;
  for (let found = true; found && end > start;) {
    found = false;
    if (end - start >= 128 && ascii(bytes, end - 128, 3) === "TAG") {
      end -= 128;
      found = true;
    } else if (end - start >= 32 && ascii(bytes, end - 32, 8) === "APETAGEX") {
      const size = bytes.readUInt32LE(end - 32 + 12);
      const hasHeader = (bytes.readUInt32LE(end - 32 + 20) & 0x80000000) !== 0;
      end -= size + (hasHeader ? 32 : 0);
      found = true;
    } else if (end - start >= 15 && ascii(bytes, end - 9, 9) === "LYRICS200") {
      const size = Number(ascii(bytes, end - 15, 6));
      if (!Number.isInteger(size)) return null;
      end -= size + 15;
      found = true;
    } else if (end - start >= 9 && ascii(bytes, end - 9, 9) === "LYRICSEND") {
      // Lyrics3 v1 has no length: it starts at "LYRICSBEGIN", at most 5,100 bytes back.
      const from = bytes.lastIndexOf("LYRICSBEGIN", end - 9, "latin1");
      if (from < start || end - from > 5100 + 20) return null;
      end = from;
      found = true;
    } else if (end - start >= 10 && ascii(bytes, end - 10, 3) === "3DI") {
      end -= 20 + synchsafe(bytes, end - 4);
      found = true;
    }
    if (end < start) return null;
  }
  return bytes.subarray(start, end);
}

// OGG -------------------------------------------------------------------------------------------

interface Page {
  /** The page as read, kept when it is written back unchanged. */
  raw?: Buffer;
  sequence?: number;
  flags: number;
  granule: bigint;
  serial: number;
  lacing: number[];
  body: Buffer;
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    let r = i << 24;
    for (let j = 0; j < 8; j++) r = r & 0x80000000 ? (r << 1) ^ 0x04c11db7 : r << 1;
    table[i] = r >>> 0;
  }
  return table;
})();

/** Ogg's CRC-32: polynomial 0x04c11db7, no reflection, zero start, no final xor. */
export function oggCrc(bytes: Uint8Array) {
  let crc = 0;
  for (let i = 0; i < bytes.length; i++) crc = (crc << 8) ^ CRC_TABLE[((crc >>> 24) ^ bytes[i]) & 0xff];
  return crc >>> 0;
}

const CAPTURE = Buffer.from("OggS\0", "latin1");

/** The whole pages, and whether the file ends inside one more (a file cut short). */
function readPages(bytes: Buffer): { pages: Page[]; cut: boolean } | string {
  const pages: Page[] = [];
  let at = 0;
  while (at < bytes.length) {
    if (at + 27 > bytes.length) {
      // The start of a page header and nothing after it.
      const rest = bytes.subarray(at);
      if (rest.subarray(0, CAPTURE.length).equals(CAPTURE.subarray(0, Math.min(rest.length, CAPTURE.length)))) return { pages, cut: true };
      return `no page at byte ${at}`;
    }
    if (ascii(bytes, at, 4) !== "OggS" || bytes[at + 4] !== 0) return `no page at byte ${at}`;
    const count = bytes[at + 26];
    const lacing = [...bytes.subarray(at + 27, at + 27 + count)];
    const size = lacing.reduce((a, b) => a + b, 0);
    const end = at + 27 + count + size;
    if (lacing.length !== count || end > bytes.length) return { pages, cut: true };
    const page = Buffer.from(bytes.subarray(at, end));
    const stated = page.readUInt32LE(22);
    page.writeUInt32LE(0, 22);
    if (oggCrc(page) !== stated) return `a bad checksum at byte ${at}`;
    pages.push({
      raw: bytes.subarray(at, end),
      sequence: bytes.readUInt32LE(at + 18),
      flags: bytes[at + 5],
      granule: bytes.readBigInt64LE(at + 6),
      serial: bytes.readUInt32LE(at + 14),
      lacing,
      body: bytes.subarray(at + 27 + count, end),
    });
    at = end;
  }
  return { pages, cut: false };
}

function writePage(page: Page, sequence: number) {
  // Audio pages keep their bytes (and their checked CRC) unless the headers now take fewer or more pages.
  if (page.raw && page.sequence === sequence) return page.raw;
  const head = Buffer.alloc(27);
  head.write("OggS", 0, "latin1");
  head[5] = page.flags;
  head.writeBigInt64LE(page.granule, 6);
  head.writeUInt32LE(page.serial, 14);
  head.writeUInt32LE(sequence, 18);
  head[26] = page.lacing.length;
  const bytes = Buffer.concat([head, Buffer.from(page.lacing), page.body]);
  bytes.writeUInt32LE(oggCrc(bytes), 22);
  return bytes;
}

/** Packets laid onto pages of at most 255 lacing values each; a page where no packet ends has granule -1. */
function pagesFor(packets: Buffer[], serial: number): Page[] {
  const pages: Page[] = [];
  let current: { lacing: number[]; parts: Buffer[]; ends: boolean; continued: boolean } = { lacing: [], parts: [], ends: false, continued: false };
  const flush = (continuedNext: boolean) => {
    pages.push({ flags: current.continued ? 1 : 0, granule: current.ends ? 0n : -1n, serial, lacing: current.lacing, body: Buffer.concat(current.parts) });
    current = { lacing: [], parts: [], ends: false, continued: continuedNext };
  };
  for (const packet of packets) {
    let at = 0;
    for (;;) {
      const take = Math.min(255, packet.length - at);
      current.lacing.push(take);
      current.parts.push(packet.subarray(at, at + take));
      at += take;
      const last = take < 255;
      if (last) current.ends = true;
      if (current.lacing.length === 255) flush(!last);
      if (last) break;
    }
  }
  if (current.lacing.length > 0) flush(false);
  return pages;
}

function parseOgg(bytes: Buffer): ParsedAudio {
  const read = readPages(bytes);
  if (typeof read === "string") return refuse(read);
  const { pages, cut } = read;
  if (pages.length < 2) return refuse(cut ? "a page is cut off" : "no audio pages");
  const serial = pages[0].serial;
  // One logical stream: a second stream (video, a chained file) is refused rather than half-checked.
  if (pages.some((p, i) => p.serial !== serial || (i > 0 && p.flags & 2)) || !(pages[0].flags & 2)) return refuse("not one stream");

  // The identification header is alone on the first page.
  const first = pages[0];
  if (first.lacing.length === 0 || first.lacing.at(-1) === 255 || first.lacing.slice(0, -1).some((l) => l < 255))
    return refuse("a first page of more than one packet");
  const id = first.body;
  let codec: "vorbis" | "opus";
  let channels: number;
  let sampleRate: number;
  let preSkip = 0;
  let headers: number;
  if (id.length >= 30 && id[0] === 1 && ascii(id, 1, 6) === "vorbis") {
    codec = "vorbis";
    if (id.readUInt32LE(7) !== 0) return refuse("an unknown Vorbis version");
    channels = id[11];
    sampleRate = id.readUInt32LE(12);
    headers = 2;
  } else if (id.length >= 19 && ascii(id, 0, 8) === "OpusHead") {
    codec = "opus";
    if (id[8] >> 4 !== 0) return refuse("an unknown Opus version");
    channels = id[9];
    preSkip = id.readUInt16LE(10);
    // Opus always decodes at 48 kHz; the header's rate is only the input's, and may be 0.
    sampleRate = 48_000;
    headers = 1;
  } else return refuse("neither Vorbis nor Opus");
  if (!saneChannels(channels) || !saneRate(sampleRate)) return refuse("an impossible shape");

  // The comment header (and Vorbis's setup header) fill the next pages, which end where they end.
  const packets: Buffer[] = [];
  let partial: Buffer[] = [];
  let page = 1;
  for (; page < pages.length && packets.length < headers; page++) {
    const { lacing, body } = pages[page];
    let at = 0;
    for (const size of lacing) {
      if (packets.length === headers) return refuse("audio on a header page");
      partial.push(body.subarray(at, at + size));
      at += size;
      if (size < 255) {
        packets.push(Buffer.concat(partial));
        partial = [];
      }
    }
  }
  if (packets.length < headers || partial.length > 0) return refuse(cut ? "a page is cut off" : "the headers are cut off");
  if (page >= pages.length) return refuse(cut ? "a page is cut off" : "no audio pages");
  const comment = packets[0];
  const emptied =
    codec === "vorbis" ? emptyComments(comment, Buffer.from("\x03vorbis", "latin1"), true) : emptyComments(comment, Buffer.from("OpusTags", "latin1"), false);
  if (!emptied) return refuse("a broken comment header");
  if (codec === "vorbis" && !(packets[1][0] === 5 && ascii(packets[1], 1, 6) === "vorbis")) return refuse("no Vorbis setup header");

  const audioPages = pages.slice(page);
  if (audioPages[0].flags & 1) return refuse("audio continues a header");
  // A file cut short loses its partial last page; its duration is then the last whole page's that ends a packet.
  const last = (cut ? audioPages.findLast((p) => p.granule !== -1n)?.granule : audioPages.at(-1)!.granule) ?? -1n;
  const samples = Number(last) - preSkip;
  const rebuilt = [first, ...pagesFor([emptied, ...packets.slice(1)], serial), ...audioPages];
  return {
    ok: true,
    data: view(Buffer.concat(rebuilt.map((p, i) => writePage(p, i)))),
    facts: { contentType: "audio/ogg", duration: samples / sampleRate, sampleRate, channels, codec },
  };
}

/** The comment packet with its vendor string and no comments; null when it does not parse. */
function emptyComments(packet: Buffer, magic: Buffer, framing: boolean): Buffer | null {
  if (packet.length < magic.length + 8 || !packet.subarray(0, magic.length).equals(magic)) return null;
  const vendorLength = packet.readUInt32LE(magic.length);
  const vendorEnd = magic.length + 4 + vendorLength;
  if (vendorEnd + 4 > packet.length) return null;
  let at = vendorEnd;
  const count = packet.readUInt32LE(at);
  at += 4;
  for (let i = 0; i < count; i++) {
    if (at + 4 > packet.length) return null;
    at += 4 + packet.readUInt32LE(at);
    if (at > packet.length) return null;
  }
  if (framing && (at >= packet.length || (packet[at] & 1) === 0)) return null;
  return Buffer.concat([packet.subarray(0, vendorEnd), Buffer.alloc(4), ...(framing ? [Buffer.from([1])] : [])]);
}
