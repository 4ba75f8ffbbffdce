/**
 * Reads an uploaded Showcase cover the way an image viewer would before it shows it: the file's
 * structure, its dimensions and (for PNG, where the pixels are one zlib stream) the image data
 * itself. A file that only starts like an image (the PNG signature and then zeros) is refused
 * here, where the seller can still be told, instead of showing as a broken image to buyers.
 *
 * No image library: the four formats' containers are small, and what decides whether a browser
 * shows an image at all is exactly what is checked here (the headers a decoder needs, the chunk
 * checksums, a complete zlib stream of the right length, the JPEG frame and scan headers up to
 * the end-of-image marker, the GIF blocks up to the trailer, the WebP bitstream headers). The
 * JPEG, GIF and WebP pixel streams themselves are not decoded: browsers draw what they can of a
 * damaged one rather than a broken-image icon.
 */
import { createInflate, crc32 } from 'node:zlib';
import { COVER_IMAGE_MAX_SIDE, sniffCoverImage, type CoverImageType } from '@wolfpack/core';

export interface DecodedCover {
  type: CoverImageType;
  width: number;
  height: number;
}

/** Why an upload cannot be shown: `problem` completes "The cover image is not a readable PNG: …". */
export class CoverDecodeError extends Error {
  constructor(
    readonly type: CoverImageType | null,
    readonly problem: string,
  ) {
    super(`${type ?? 'image'}: ${problem}`);
  }
}

/** The image's type and size, or a CoverDecodeError saying what is wrong with it. */
export async function decodeCoverImage(bytes: Uint8Array): Promise<DecodedCover> {
  const type = sniffCoverImage(bytes);
  if (type === null) throw new CoverDecodeError(null, 'it is not a PNG, JPEG, WebP or GIF');
  const fail = (problem: string): never => {
    throw new CoverDecodeError(type, problem);
  };
  const size =
    type === 'image/png' ? await readPng(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), fail)
    : type === 'image/jpeg' ? readJpeg(bytes, fail)
    : type === 'image/gif' ? readGif(bytes, fail)
    : readWebp(bytes, fail);
  if (size.width < 1 || size.height < 1) fail(`it is ${size.width} × ${size.height} pixels`);
  if (size.width > COVER_IMAGE_MAX_SIDE || size.height > COVER_IMAGE_MAX_SIDE) {
    fail(`it is ${size.width} × ${size.height} pixels, more than ${COVER_IMAGE_MAX_SIDE} on a side`);
  }
  return { type, ...size };
}

type Fail = (problem: string) => never;
interface Size {
  width: number;
  height: number;
}

const ENDS_EARLY = 'the file ends early (was it cut short?)';
const u16be = (b: Uint8Array, at: number) => (b[at]! << 8) | b[at + 1]!;
const u16le = (b: Uint8Array, at: number) => b[at]! | (b[at + 1]! << 8);
const u24le = (b: Uint8Array, at: number) => b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16);
const u32le = (b: Uint8Array, at: number) => (b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24)) >>> 0;
const ascii = (b: Uint8Array, at: number, length: number) => String.fromCharCode(...b.subarray(at, at + length));

// --- PNG --------------------------------------------------------------------------------------

/** Bit depths each PNG colour type allows, and its samples per pixel. */
const PNG_COLOUR_TYPES: Record<number, { depths: number[]; samples: number }> = {
  0: { depths: [1, 2, 4, 8, 16], samples: 1 },
  2: { depths: [8, 16], samples: 3 },
  3: { depths: [1, 2, 4, 8], samples: 1 },
  4: { depths: [8, 16], samples: 2 },
  6: { depths: [8, 16], samples: 4 },
};

/** Adam7's passes: first column and row, and the step between columns and rows. */
const ADAM7 = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
] as const;

async function readPng(b: Buffer, fail: Fail): Promise<Size> {
  let at = 8;
  let header: { width: number; height: number; depth: number; colour: number; interlaced: boolean } | undefined;
  let palette = false;
  let ended = false;
  let idatDone = false;
  const idat: Buffer[] = [];
  while (!ended) {
    if (at + 12 > b.length) fail(ENDS_EARLY);
    const length = b.readUInt32BE(at);
    const type = ascii(b, at + 4, 4);
    if (!/^[A-Za-z]{4}$/.test(type)) fail('its chunks are damaged');
    if (length > 0x7fffffff || at + 12 + length > b.length) fail(ENDS_EARLY);
    const data = b.subarray(at + 8, at + 8 + length);
    if (crc32(b.subarray(at + 4, at + 8 + length)) !== b.readUInt32BE(at + 8 + length)) fail(`its ${type} chunk is damaged (the checksum does not match)`);
    if (header === undefined && type !== 'IHDR') fail('it does not start with an image header (IHDR)');
    switch (type) {
      case 'IHDR': {
        if (header !== undefined || length !== 13) fail('its image header (IHDR) is damaged');
        const colour = data[9]!;
        const depth = data[8]!;
        const kind = PNG_COLOUR_TYPES[colour];
        if (!kind || !kind.depths.includes(depth)) fail(`it has colour type ${colour} with bit depth ${depth}, which PNG does not allow`);
        if (data[10] !== 0 || data[11] !== 0 || (data[12] !== 0 && data[12] !== 1)) fail('its image header (IHDR) names an unknown compression, filter or interlace method');
        header = { width: data.readUInt32BE(0), height: data.readUInt32BE(4), depth, colour, interlaced: data[12] === 1 };
        // Checked before the pixels are inflated: their size follows from these.
        if (header.width < 1 || header.height < 1 || header.width > COVER_IMAGE_MAX_SIDE || header.height > COVER_IMAGE_MAX_SIDE) {
          return { width: header.width, height: header.height };
        }
        break;
      }
      case 'PLTE':
        if (length === 0 || length % 3 !== 0 || length > 768) fail('its palette (PLTE) is damaged');
        palette = true;
        break;
      case 'IDAT':
        if (idatDone) fail('its image data (IDAT) is split by other chunks');
        idat.push(data);
        break;
      case 'IEND':
        ended = true;
        break;
      default:
        // An unknown critical chunk (upper-case first letter) means a decoder must give up.
        if (type.charCodeAt(0) < 0x61) fail(`it has a ${type} chunk that image viewers do not know`);
    }
    if (idat.length > 0 && type !== 'IDAT') idatDone = true;
    at += 12 + length;
  }
  if (!header) fail(ENDS_EARLY);
  if (header.colour === 3 && !palette) fail('it uses a palette but has none (PLTE)');
  if (idat.length === 0) fail('it has no image data (IDAT)');
  await inflatePixels(Buffer.concat(idat), rowLengths(header), fail);
  return { width: header.width, height: header.height };
}

/** The byte length of every filtered row the IDAT stream holds, in order (a filter byte each). */
function* rowLengths(header: { width: number; height: number; depth: number; colour: number; interlaced: boolean }): Generator<number> {
  const bitsPerPixel = header.depth * PNG_COLOUR_TYPES[header.colour]!.samples;
  const rowBytes = (pixels: number) => 1 + Math.ceil((pixels * bitsPerPixel) / 8);
  if (!header.interlaced) {
    for (let row = 0; row < header.height; row += 1) yield rowBytes(header.width);
    return;
  }
  for (const [x0, y0, dx, dy] of ADAM7) {
    const columns = Math.ceil((header.width - x0) / dx);
    const rows = Math.ceil((header.height - y0) / dy);
    if (columns <= 0 || rows <= 0) continue;
    for (let row = 0; row < rows; row += 1) yield rowBytes(columns);
  }
}

/**
 * Inflates the pixels as a stream (never held whole: a 1 MB file can inflate to hundreds of MB)
 * and checks that every row starts with one of PNG's five filters and that no row is missing.
 * The stream stops as soon as the last row is in.
 */
function inflatePixels(stream: Buffer, rows: Generator<number>, fail: Fail): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const inflate = createInflate();
    let seen = 0;
    let next = rows.next();
    let rowStart = 0;
    let settled = false;
    const settle = (problem?: string) => {
      if (settled) return;
      settled = true;
      inflate.destroy();
      if (problem === undefined) resolve();
      else {
        try {
          fail(problem);
        } catch (error) {
          reject(error);
        }
      }
    };
    inflate.on('data', (chunk: Buffer) => {
      while (!next.done && rowStart < seen + chunk.length) {
        if (chunk[rowStart - seen]! > 4) return settle('its image data is damaged (a row has an unknown filter)');
        rowStart += next.value;
        next = rows.next();
      }
      seen += chunk.length;
      if (next.done && seen >= rowStart) settle();
    });
    inflate.on('error', () => settle('its image data is damaged (it does not inflate)'));
    inflate.on('end', () => settle(next.done && seen >= rowStart ? undefined : 'its image data ends early (rows are missing)'));
    inflate.end(stream);
  });
}

// --- JPEG -------------------------------------------------------------------------------------

/** Start-of-frame markers browsers decode: baseline, extended and progressive Huffman JPEG. */
const JPEG_FRAMES_SHOWN = new Set([0xc0, 0xc1, 0xc2]);
const JPEG_FRAMES_OTHER = new Set([0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

function readJpeg(b: Uint8Array, fail: Fail): Size {
  let at = 2;
  let frame: (Size & { components: Set<number> }) | undefined;
  let scans = 0;
  for (;;) {
    if (at >= b.length) fail(ENDS_EARLY);
    if (b[at] !== 0xff) fail('its markers are damaged');
    while (b[at] === 0xff) at += 1;
    if (at >= b.length) fail(ENDS_EARLY);
    const marker = b[at]!;
    at += 1;
    if (marker === 0xd9) break;
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) continue;
    if (marker === 0x00 || marker === 0xd8) fail('its markers are damaged');
    if (at + 2 > b.length) fail(ENDS_EARLY);
    const length = u16be(b, at);
    if (length < 2) fail('its markers are damaged');
    if (at + length > b.length) fail(ENDS_EARLY);
    const body = b.subarray(at + 2, at + length);
    if (JPEG_FRAMES_OTHER.has(marker)) fail('it uses a JPEG coding (lossless, hierarchical or arithmetic) that browsers do not show');
    if (JPEG_FRAMES_SHOWN.has(marker)) {
      if (frame) fail('it has two frame headers');
      const count = body[5] ?? 0;
      if (body.length !== 6 + 3 * count || count < 1 || count > 4) fail('its frame header is damaged');
      if (body[0] !== 8 && body[0] !== 12) fail(`it has ${body[0]}-bit samples, which browsers do not show`);
      const components = new Set<number>();
      for (let i = 0; i < count; i += 1) {
        const sampling = body[7 + 3 * i]!;
        if (sampling >> 4 < 1 || sampling >> 4 > 4 || (sampling & 15) < 1 || (sampling & 15) > 4 || body[8 + 3 * i]! > 3) fail('its frame header is damaged');
        components.add(body[6 + 3 * i]!);
      }
      frame = { height: u16be(body, 1), width: u16be(body, 3), components };
    }
    at += length;
    if (marker === 0xda) {
      if (!frame) fail('its image data comes before its frame header');
      const count = body[0] ?? 0;
      if (count < 1 || count > 4 || body.length !== 4 + 2 * count) fail('its scan header is damaged');
      for (let i = 0; i < count; i += 1) if (!frame.components.has(body[1 + 2 * i]!)) fail('its scan header is damaged');
      scans += 1;
      // The entropy-coded data runs to the next marker that is neither a stuffed 0xFF00 nor a restart.
      while (at + 1 < b.length && !(b[at] === 0xff && b[at + 1] !== 0x00 && !(b[at + 1]! >= 0xd0 && b[at + 1]! <= 0xd7))) at += 1;
      if (at + 1 >= b.length) fail(ENDS_EARLY);
    }
  }
  if (!frame) fail('it has no frame header');
  if (scans === 0) fail('it has no image data');
  return { width: frame.width, height: frame.height };
}

// --- GIF --------------------------------------------------------------------------------------

function readGif(b: Uint8Array, fail: Fail): Size {
  if (b.length < 13) fail(ENDS_EARLY);
  const size = { width: u16le(b, 6), height: u16le(b, 8) };
  const flags = b[10]!;
  const globalColours = (flags & 0x80) !== 0;
  let at = 13 + (globalColours ? 3 * 2 ** ((flags & 7) + 1) : 0);
  let images = 0;
  const subBlocks = () => {
    for (;;) {
      if (at >= b.length) fail(ENDS_EARLY);
      const length = b[at]!;
      at += 1 + length;
      if (length === 0) return;
    }
  };
  for (;;) {
    if (at >= b.length) fail(ENDS_EARLY);
    const block = b[at]!;
    if (block === 0x3b) break;
    if (block === 0x21) {
      at += 2;
      subBlocks();
    } else if (block === 0x2c) {
      if (at + 10 > b.length) fail(ENDS_EARLY);
      if (u16le(b, at + 5) < 1 || u16le(b, at + 7) < 1) fail('one of its frames is 0 pixels wide or high');
      const local = b[at + 9]!;
      at += 10;
      if (local & 0x80) at += 3 * 2 ** ((local & 7) + 1);
      else if (!globalColours) fail('it has no colour table');
      if (at >= b.length) fail(ENDS_EARLY);
      const codeSize = b[at]!;
      if (codeSize < 2 || codeSize > 8) fail('its image data is damaged');
      at += 1;
      subBlocks();
      images += 1;
    } else fail('its blocks are damaged');
  }
  if (images === 0) fail('it has no image in it');
  return size;
}

// --- WebP -------------------------------------------------------------------------------------

function readWebp(b: Uint8Array, fail: Fail): Size {
  const end = 8 + u32le(b, 4);
  if (end > b.length) fail(ENDS_EARLY);
  if (end < 20) fail('it has no image in it');
  const chunks = subChunks(b.subarray(0, end), 12, fail);
  const first = chunks[0]!;
  if (first.type === 'VP8 ' || first.type === 'VP8L') return bitstreamSize(first, fail);
  if (first.type !== 'VP8X') fail('it does not start with a WebP image chunk');
  if (first.data.length < 10) fail('its header (VP8X) is damaged');
  const canvas = { width: 1 + u24le(first.data, 4), height: 1 + u24le(first.data, 7) };
  const animated = (first.data[0]! & 0x02) !== 0;
  if (animated) {
    const frames = chunks.filter((chunk) => chunk.type === 'ANMF');
    if (!chunks.some((chunk) => chunk.type === 'ANIM') || frames.length === 0) fail('it is animated but has no frames');
    for (const frame of frames) {
      // A frame: 16 bytes of placement and timing, then its own chunks (ALPH, then VP8 or VP8L).
      if (frame.data.length < 16) fail('one of its frames is damaged');
      const image = subChunks(frame.data, 16, fail).find((chunk) => chunk.type === 'VP8 ' || chunk.type === 'VP8L');
      if (!image) fail('one of its frames has no image data');
      bitstreamSize(image, fail);
    }
  } else {
    const image = chunks.find((chunk) => chunk.type === 'VP8 ' || chunk.type === 'VP8L');
    if (!image) fail('it has no image data (VP8 or VP8L)');
    bitstreamSize(image, fail);
  }
  return canvas;
}

/** The RIFF chunks of `data` from `at` on, each padded to an even length. */
function subChunks(data: Uint8Array, at: number, fail: Fail): Array<{ type: string; data: Uint8Array }> {
  const chunks: Array<{ type: string; data: Uint8Array }> = [];
  while (at < data.length) {
    if (at + 8 > data.length) fail(ENDS_EARLY);
    const length = u32le(data, at + 4);
    if (at + 8 + length > data.length) fail(ENDS_EARLY);
    chunks.push({ type: ascii(data, at, 4), data: data.subarray(at + 8, at + 8 + length) });
    at += 8 + length + (length & 1);
  }
  return chunks;
}

/** The size a lossy (VP8) or lossless (VP8L) bitstream's header gives, once its header checks out. */
function bitstreamSize(chunk: { type: string; data: Uint8Array }, fail: Fail): Size {
  const d = chunk.data;
  if (chunk.type === 'VP8 ') {
    if (d.length < 10) fail(ENDS_EARLY);
    const tag = u24le(d, 0);
    if ((tag & 1) !== 0) fail('its image data is damaged (no key frame)');
    if (((tag >> 1) & 7) > 3 || d[3] !== 0x9d || d[4] !== 0x01 || d[5] !== 0x2a) fail('its image data is damaged');
    if (10 + (tag >> 5) > d.length) fail(ENDS_EARLY);
    return { width: u16le(d, 6) & 0x3fff, height: u16le(d, 8) & 0x3fff };
  }
  if (chunk.type === 'VP8L') {
    if (d.length < 5) fail(ENDS_EARLY);
    if (d[0] !== 0x2f) fail('its image data is damaged');
    const bits = u32le(d, 1);
    if (bits >>> 29 !== 0) fail('its image data is damaged (unknown version)');
    return { width: 1 + (bits & 0x3fff), height: 1 + ((bits >>> 14) & 0x3fff) };
  }
  return fail('it has no image data (VP8 or VP8L)');
}
