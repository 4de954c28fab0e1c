import { wav } from "./media";

/**
 * Audio for upload tests, built byte by byte (no fixtures on disk, no encoder at test time): MPEG
 * frames, Ogg pages with their CRCs, RIFF chunks, and the metadata each format can carry, every
 * piece of it marked with SECRET so a test can look for it in what is stored.
 */

export const SECRET = "secret-singer-at-home";

const latin1 = (text: string) => Buffer.from(text, "latin1");

// WAV -------------------------------------------------------------------------------------------

function chunk(id: string, body: Buffer) {
  const head = Buffer.alloc(8);
  head.write(id, 0, "latin1");
  head.writeUInt32LE(body.length, 4);
  return Buffer.concat(body.length % 2 ? [head, body, Buffer.alloc(1)] : [head, body]);
}

/** The factory's WAV with a LIST/INFO chunk before its data and `bext` and `id3 ` chunks after it. */
export function wavWithMetadata(samples = 2000) {
  const plain = wav(samples);
  const fmt = chunk("fmt ", plain.subarray(20, 36));
  const data = chunk("data", plain.subarray(44));
  const info = chunk("LIST", Buffer.concat([latin1("INFO"), chunk("IART", latin1(`${SECRET}\0`)), chunk("ICMT", latin1("recorded in the kitchen\0"))]));
  const bext = chunk("bext", Buffer.concat([latin1(SECRET), Buffer.alloc(600)]));
  const id3 = chunk("id3 ", id3v2());
  const body = Buffer.concat([latin1("WAVE"), fmt, info, data, bext, id3]);
  return Buffer.concat([latin1("RIFF"), u32le(body.length), body]);
}

/** A 74-byte "WAV": a correct header whose data chunk holds HTML. */
export function wavHoldingHtml() {
  const html = latin1("<svg><script>alert(1)</script>");
  const header = wav(0).subarray(0, 44);
  header.writeUInt32LE(36 + html.length, 4);
  header.writeUInt32LE(html.length, 40);
  return Buffer.concat([header, html]);
}

/** A WAV header that promises 2,000 samples, followed by HTML instead. */
export function wavHeaderThenHtml() {
  return Buffer.concat([wav().subarray(0, 44), latin1("<!doctype html><p>not audio</p>")]);
}

/** A WAVE_FORMAT_EXTENSIBLE file (as multichannel and 24-bit writers make them): 16-bit stereo PCM, or 32-bit float. */
export function wavExtensible(subFormat: "pcm" | "float" | "adpcm", frames = 2000) {
  const bits = subFormat === "float" ? 32 : 16;
  const channels = 2;
  const rate = 8000;
  const fmt = Buffer.alloc(40);
  fmt.writeUInt16LE(0xfffe, 0);
  fmt.writeUInt16LE(channels, 2);
  fmt.writeUInt32LE(rate, 4);
  fmt.writeUInt32LE((rate * channels * bits) / 8, 8);
  fmt.writeUInt16LE((channels * bits) / 8, 12);
  fmt.writeUInt16LE(bits, 14);
  fmt.writeUInt16LE(22, 16); // extension size
  fmt.writeUInt16LE(bits, 18); // valid bits
  fmt.writeUInt32LE(3, 20); // front left and right
  // KSDATAFORMAT_SUBTYPE_PCM / _IEEE_FLOAT / ADPCM: the format code, then the fixed GUID tail.
  fmt.writeUInt16LE({ pcm: 1, float: 3, adpcm: 2 }[subFormat], 24);
  Buffer.from("000000001000800000aa00389b71", "hex").copy(fmt, 26);
  const body = Buffer.concat([latin1("WAVE"), chunk("fmt ", fmt), chunk("data", Buffer.alloc((frames * channels * bits) / 8, 0x11))]);
  return Buffer.concat([latin1("RIFF"), u32le(body.length), body]);
}

/** The factory's WAV as a recorder leaves it when it never closes the file: RIFF and data sizes 0xFFFFFFFF. */
export function wavUnclosed(samples = 2000) {
  const file = wav(samples);
  file.writeUInt32LE(0xffffffff, 4);
  file.writeUInt32LE(0xffffffff, 40);
  return file;
}

const u32le = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n);
  return b;
};

// MP3 -------------------------------------------------------------------------------------------

/** MPEG-1 Layer III, 128 kbit/s, 44.1 kHz, stereo: 417-byte frames of 1,152 samples (silence). */
export function mpegFrames(count = 40) {
  const frame = Buffer.alloc(417);
  frame.set([0xff, 0xfb, 0x90, 0x00]);
  return Buffer.concat(Array.from({ length: count }, () => frame));
}

const MODES = { stereo: 0, joint: 1, dual: 2, mono: 3 } as const;
const V1_L3_KBPS = [32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];

/** One MPEG-1 Layer III frame at 44.1 kHz of the given bitrate and channel mode, its body silence. */
export function mpegFrame({ kbps = 128, mode = "stereo", padding = false }: { kbps?: number; mode?: keyof typeof MODES; padding?: boolean } = {}) {
  const index = V1_L3_KBPS.indexOf(kbps) + 1;
  if (index === 0) throw new Error(`no MPEG-1 Layer III bitrate ${kbps}`);
  const frame = Buffer.alloc(Math.floor((144 * kbps * 1000) / 44100) + (padding ? 1 : 0));
  frame.set([0xff, 0xfb, (index << 4) | (padding ? 2 : 0), MODES[mode] << 6]);
  return frame;
}

/**
 * The first frame of an encoder's VBR or CBR file: an MPEG frame whose body, after the side
 * information, holds a Xing/Info header with LAME's extension, or Fraunhofer's VBRI header.
 */
export function vbrHeaderFrame(kind: "Xing" | "Info" | "VBRI", frames: number, bytes: number) {
  const frame = mpegFrame({ kbps: 128 });
  // MPEG-1 stereo: 32 bytes of side information after the 4-byte header.
  const at = 4 + 32;
  frame.write(kind, at, "latin1");
  if (kind === "VBRI") {
    frame.writeUInt16BE(1, at + 4); // version
    frame.writeUInt32BE(bytes, at + 10);
    frame.writeUInt32BE(frames, at + 14);
  } else {
    frame.writeUInt32BE(0x0f, at + 4); // frames, bytes, TOC and quality follow
    frame.writeUInt32BE(frames, at + 8);
    frame.writeUInt32BE(bytes, at + 12);
    for (let i = 0; i < 100; i++) frame[at + 16 + i] = Math.floor((i * 256) / 100);
    frame.writeUInt32BE(78, at + 116);
    frame.write("LAME3.100", at + 120, "latin1");
  }
  return frame;
}

/** A LAME-style VBR file: a Xing frame, then frames whose bitrate and stereo mode change frame to frame. */
export function mp3Vbr(count = 30) {
  const kbps = [128, 160, 96, 192, 112, 256, 64, 320];
  const modes = ["joint", "stereo", "dual"] as const;
  const frames = Array.from({ length: count }, (_, i) => mpegFrame({ kbps: kbps[i % kbps.length], mode: modes[i % modes.length], padding: i % 3 === 1 }));
  const audioBytes = frames.reduce((n, f) => n + f.length, 0);
  return Buffer.concat([vbrHeaderFrame("Xing", count, audioBytes), ...frames]);
}

const synchsafe = (n: number) => Buffer.from([(n >> 21) & 0x7f, (n >> 14) & 0x7f, (n >> 7) & 0x7f, n & 0x7f]);

/** An ID3v2.4 tag with a title frame (and a footer when asked). */
export function id3v2({ footer = false } = {}) {
  const text = Buffer.concat([Buffer.from([3]), latin1(SECRET)]);
  const frame = Buffer.concat([latin1("TIT2"), synchsafe(text.length), Buffer.alloc(2), text]);
  const head = Buffer.concat([latin1("ID3"), Buffer.from([4, 0, footer ? 0x10 : 0]), synchsafe(frame.length)]);
  return footer ? Buffer.concat([head, frame, latin1("3DI"), head.subarray(3)]) : Buffer.concat([head, frame]);
}

/** The 128-byte ID3v1 tag at a file's end. */
export function id3v1() {
  const tag = Buffer.alloc(128);
  tag.write("TAG", 0, "latin1");
  tag.write(SECRET, 3, "latin1");
  return tag;
}

/** An APEv2 tag with its header and footer. */
export function apeTag() {
  const value = latin1(SECRET);
  const item = Buffer.concat([u32le(value.length), u32le(0), latin1("Artist\0"), value]);
  const part = (flags: number) => Buffer.concat([latin1("APETAGEX"), u32le(2000), u32le(item.length + 32), u32le(1), u32le(flags), Buffer.alloc(8)]);
  return Buffer.concat([part(0xa0000000), item, part(0x80000000)]);
}

/** A Lyrics3 v2 tag (it sits before an ID3v1 tag). */
export function lyrics3() {
  const body = Buffer.concat([latin1("LYRICSBEGIN"), latin1(`LYR${String(SECRET.length).padStart(5, "0")}`), latin1(SECRET)]);
  return Buffer.concat([body, latin1(String(body.length).padStart(6, "0")), latin1("LYRICS200")]);
}

/** An MP3 as a tagger leaves it: ID3v2 first; APEv2, Lyrics3 and ID3v1 last. */
export function mp3WithMetadata(frames = 40) {
  return Buffer.concat([id3v2({ footer: true }), mpegFrames(frames), apeTag(), lyrics3(), id3v1()]);
}

// OGG -------------------------------------------------------------------------------------------

function crc(bytes: Uint8Array) {
  let value = 0;
  for (const byte of bytes) {
    value ^= byte << 24;
    for (let i = 0; i < 8; i++) value = value & 0x80000000 ? (value << 1) ^ 0x04c11db7 : value << 1;
  }
  return value >>> 0;
}

/** One Ogg page holding whole packets (each under 255 × 255 bytes). */
export function oggPage(
  packets: Buffer[],
  { sequence, granule = 0n, flags = 0, serial = 0x1234 }: { sequence: number; granule?: bigint; flags?: number; serial?: number },
) {
  const lacing: number[] = [];
  for (const packet of packets) {
    let left = packet.length;
    while (left >= 255) {
      lacing.push(255);
      left -= 255;
    }
    lacing.push(left);
  }
  const head = Buffer.alloc(27);
  head.write("OggS", 0, "latin1");
  head[5] = flags;
  head.writeBigInt64LE(granule, 6);
  head.writeUInt32LE(serial, 14);
  head.writeUInt32LE(sequence, 18);
  head[26] = lacing.length;
  const page = Buffer.concat([head, Buffer.from(lacing), ...packets]);
  page.writeUInt32LE(crc(page), 22);
  return page;
}

function commentPacket(magic: Buffer, comments: string[], framing: boolean) {
  const vendor = latin1("Test encoder 1.0");
  const list = comments.flatMap((c) => [u32le(Buffer.byteLength(c)), Buffer.from(c)]);
  return Buffer.concat([magic, u32le(vendor.length), vendor, u32le(comments.length), ...list, ...(framing ? [Buffer.from([1])] : [])]);
}

export const OGG_COMMENTS = [`ARTIST=${SECRET}`, "LOCATION=59.9 N 10.7 E", "TITLE=Bell"];

/** Ogg Vorbis, mono 44.1 kHz, one second: identification, comment and setup headers, then audio pages. */
export function oggVorbis(comments = OGG_COMMENTS) {
  const id = Buffer.alloc(30);
  id[0] = 1;
  id.write("vorbis", 1, "latin1");
  id.writeUInt32LE(0, 7);
  id[11] = 1;
  id.writeUInt32LE(44100, 12);
  id.writeInt32LE(64000, 20);
  id[28] = 0xb8;
  id[29] = 1;
  const comment = commentPacket(latin1("\x03vorbis"), comments, true);
  const setup = Buffer.concat([latin1("\x05vorbis"), Buffer.alloc(300, 0x42)]);
  return Buffer.concat([
    oggPage([id], { sequence: 0, flags: 2 }),
    oggPage([comment, setup], { sequence: 1 }),
    oggPage([Buffer.alloc(120, 7), Buffer.alloc(90, 9)], { sequence: 2, granule: 22050n }),
    oggPage([Buffer.alloc(100, 5)], { sequence: 3, granule: 44100n, flags: 4 }),
  ]);
}

/** Ogg Opus, stereo, one second after its pre-skip of 312 samples. */
export function oggOpus(comments = OGG_COMMENTS) {
  const head = Buffer.alloc(19);
  head.write("OpusHead", 0, "latin1");
  head[8] = 1;
  head[9] = 2;
  head.writeUInt16LE(312, 10);
  head.writeUInt32LE(48000, 12);
  const tags = commentPacket(latin1("OpusTags"), comments, false);
  return Buffer.concat([
    oggPage([head], { sequence: 0, flags: 2 }),
    oggPage([tags], { sequence: 1 }),
    oggPage([Buffer.alloc(80, 3), Buffer.alloc(80, 4)], { sequence: 2, granule: 48312n, flags: 4 }),
  ]);
}
