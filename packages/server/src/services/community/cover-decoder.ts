/**
 * Reads an uploaded Showcase cover the way an image viewer would before it shows it: libvips
 * (through sharp) reads its header and decodes all of its pixels. A file that only starts like
 * an image (the PNG signature and then zeros, a JPEG cut short) is refused here, where the seller
 * can still be told, instead of showing as a broken image to buyers.
 *
 * Two things libvips reads and browsers do not show are checked beside it: a PNG chunk whose
 * checksum does not match (libvips's libpng ignores checksums; Chromium's refuses the image) and
 * an arithmetic-coded JPEG (libjpeg-turbo decodes those; browsers do not).
 */
import { crc32 } from 'node:zlib';
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

const ENDS_EARLY = 'the file ends early (was it cut short?)';

/** The image's type and size, or a CoverDecodeError saying what is wrong with it. */
export async function decodeCoverImage(bytes: Uint8Array): Promise<DecodedCover> {
  const type = sniffCoverImage(bytes);
  if (type === null) throw new CoverDecodeError(null, 'it is not a PNG, JPEG, WebP or GIF');
  const fail = (problem: string): never => {
    throw new CoverDecodeError(type, problem);
  };
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (type === 'image/png') checkPngChunks(b, fail);
  if (type === 'image/jpeg' && isArithmeticJpeg(b)) fail('it is arithmetic-coded, which browsers do not show');
  // Loaded on the first upload, not at every start: libvips is large.
  const { default: sharp } = await import('sharp');
  sharp.cache(false);
  const image = sharp(b, { failOn: 'warning' });
  const { width = 0, height = 0 } = await image.metadata().catch((error: unknown) => fail(problemOf(error, 'its header is damaged')));
  if (width < 1 || height < 1) fail(`it is ${width} × ${height} pixels`);
  // Checked before any pixel is decoded: their memory follows from these.
  if (width > COVER_IMAGE_MAX_SIDE || height > COVER_IMAGE_MAX_SIDE) fail(`it is ${width} × ${height} pixels, more than ${COVER_IMAGE_MAX_SIDE} on a side`);
  await image.stats().catch((error: unknown) => fail(problemOf(error, 'its image data is damaged')));
  return { type, width, height };
}

/** libvips's words for a file that stops before its end, else what the caller says. */
function problemOf(error: unknown, otherwise: string): string {
  const message = error instanceof Error ? error.message : String(error);
  return /premature end|unexpected end|truncated|end of (file|data|stream)/i.test(message) ? ENDS_EARLY : otherwise;
}

/** Every chunk's name and checksum, up to a whole IEND; the pixels are libvips's to read. */
function checkPngChunks(b: Buffer, fail: (problem: string) => never): void {
  for (let at = 8; ; ) {
    if (at + 12 > b.length) fail(ENDS_EARLY);
    const length = b.readUInt32BE(at);
    const type = b.toString('latin1', at + 4, at + 8);
    if (!/^[A-Za-z]{4}$/.test(type)) fail('its chunks are damaged');
    if (at + 12 + length > b.length) fail(ENDS_EARLY);
    if (crc32(b.subarray(at + 4, at + 8 + length)) !== b.readUInt32BE(at + 8 + length)) fail(`its ${type} chunk is damaged (the checksum does not match)`);
    if (type === 'IEND') return;
    at += 12 + length;
  }
}

/** Whether the JPEG's frame is one of SOF9–SOF15, the arithmetic-coded ones (0xCC among them is DAC, a table). */
function isArithmeticJpeg(b: Buffer): boolean {
  for (let at = 2; at + 4 <= b.length && b[at] === 0xff; ) {
    const marker = b[at + 1]!;
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    if (marker >= 0xc9 && marker <= 0xcf && marker !== 0xcc) return true;
    // The scan starts: no frame header comes after it.
    if (marker === 0xda) return false;
    at += 2 + b.readUInt16BE(at + 2);
  }
  return false;
}
