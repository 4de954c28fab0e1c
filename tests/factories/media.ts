import { crc32 } from "node:zlib";
import sharp from "sharp";

/**
 * Files for upload tests, made in the test (no fixtures on disk): real images with sharp, a tiny
 * WAV by hand, and the abuse cases (a 60,000 × 60,000 PNG header in a tiny file, a truncated JPEG,
 * HTML, SVG and PDF bytes).
 */

export function png(width = 64, height = 48, background = "#b4532a") {
  return sharp({ create: { width, height, channels: 3, background } })
    .png()
    .toBuffer();
}

export const GPS_MARK = "N 59 55 12";
export const XMP_MARK = "xmp-creator-secret";
export const COMMENT_MARK = "comment-secret-camera";

/**
 * A JPEG carrying EXIF (with GPS), XMP, an ICC profile and a comment segment: everything the
 * served image must no longer carry.
 */
export async function jpegWithMetadata(width = 400, height = 300) {
  const jpeg = await sharp({ create: { width, height, channels: 3, background: "#3a6ea5" } })
    .jpeg()
    .withExif({
      IFD0: { Make: "SecretCam", Model: "Spy 1", ImageDescription: GPS_MARK },
      IFD3: { GPSLatitudeRef: "N", GPSLatitude: "59/1 55/1 12/1", GPSLongitudeRef: "E", GPSLongitude: "10/1 45/1 0/1" },
    })
    .withXmp(
      `<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:creator>${XMP_MARK}</dc:creator></rdf:Description></rdf:RDF></x:xmpmeta>`,
    )
    .withIccProfile("p3")
    .toBuffer();
  // A COM segment right after SOI (sharp writes none of its own).
  const text = Buffer.from(COMMENT_MARK);
  const length = Buffer.alloc(2);
  length.writeUInt16BE(text.length + 2);
  return Buffer.concat([jpeg.subarray(0, 2), Buffer.from([0xff, 0xfe]), length, text, jpeg.subarray(2)]);
}

/** A real PNG whose header claims 60,000 × 60,000 pixels: a few dozen bytes that would decode to 14 GB. */
export async function pixelBomb() {
  const bytes = Buffer.from(await png(1, 1));
  // IHDR data starts at byte 16 (signature 8, length 4, type 4); its CRC covers type and data.
  bytes.writeUInt32BE(60_000, 16);
  bytes.writeUInt32BE(60_000, 20);
  bytes.writeUInt32BE(crc32(bytes.subarray(12, 29)), 29);
  return bytes;
}

/**
 * A GIF bomb: a 2 × 2 GIF whose screen and frame say 65,535 × 65,535 pixels, which would decode to
 * 17 GB. Its header alone is read, and refused.
 */
export async function gifBomb() {
  const bytes = Buffer.from(
    await sharp({ create: { width: 2, height: 2, channels: 3, background: "#888" } })
      .gif()
      .toBuffer(),
  );
  bytes.writeUInt16LE(65_535, 6);
  bytes.writeUInt16LE(65_535, 8);
  // The image descriptor (0x2C) after the header, its colour table and the graphic control block.
  const frame = bytes.indexOf(0x2c, 13);
  bytes.writeUInt16LE(65_535, frame + 5);
  bytes.writeUInt16LE(65_535, frame + 7);
  return bytes;
}

export async function truncatedJpeg() {
  const jpeg = await sharp({ create: { width: 300, height: 300, channels: 3, background: "#777" } })
    .jpeg()
    .toBuffer();
  return jpeg.subarray(0, Math.floor(jpeg.length * 0.6));
}

/** A quarter second of 8 kHz, 8-bit mono silence with a tone: a valid WAV file. */
export function wav(samples = 2000) {
  const data = Buffer.alloc(samples);
  for (let i = 0; i < samples; i++) data[i] = 128 + Math.round(60 * Math.sin(i / 3));
  const header = Buffer.alloc(44);
  header.write("RIFF", 0);
  header.writeUInt32LE(36 + samples, 4);
  header.write("WAVE", 8);
  header.write("fmt ", 12);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(8000, 24);
  header.writeUInt32LE(8000, 28);
  header.writeUInt16LE(1, 32);
  header.writeUInt16LE(8, 34);
  header.write("data", 36);
  header.writeUInt32LE(samples, 40);
  return Buffer.concat([header, data]);
}

export const htmlAsPng = () => Buffer.from("<!doctype html><html><body><script>alert(document.cookie)</script></body></html>");
export const svg = () => Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>');
export const pdf = () => Buffer.from("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n");
