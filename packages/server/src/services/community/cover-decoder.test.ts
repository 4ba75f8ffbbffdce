import { crc32, deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { COVER_GIF, COVER_JPEG, COVER_PNG, COVER_WEBP_LOSSY, REAL_COVERS } from '../../testing/cover-images.js';
import { CoverDecodeError, decodeCoverImage } from './cover-decoder.js';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function chunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  body.copy(out, 4);
  out.writeUInt32BE(crc32(body), 8 + data.length);
  return out;
}

/** An 8-bit RGBA PNG of `width` × `height` whose pixel stream is `raw` (filter bytes included). */
function png(width: number, height: number, raw: Buffer = Buffer.alloc(height * (1 + 4 * width)), interlace = 0): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 6, 0, 0, interlace], 8);
  return Buffer.concat([SIGNATURE, chunk('IHDR', header), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

async function problem(bytes: Uint8Array): Promise<string> {
  const error = await decodeCoverImage(bytes).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CoverDecodeError);
  return (error as CoverDecodeError).problem;
}

describe('decodeCoverImage', () => {
  it.each(REAL_COVERS)('reads a real $name: its type and size', async ({ bytes, type, width, height }) => {
    expect(await decodeCoverImage(bytes)).toEqual({ type, width, height });
  });

  it('refuses the PNG signature followed by zeros (the broken image of the report)', async () => {
    expect(await problem(Buffer.concat([SIGNATURE, Buffer.alloc(1000)]))).toBe('its chunks are damaged');
  });

  it.each(REAL_COVERS)('refuses a $name cut short anywhere after its signature', async ({ bytes }) => {
    for (const length of [12, 20, Math.floor(bytes.length / 2), bytes.length - 2]) {
      await expect(decodeCoverImage(bytes.subarray(0, length)), `${length} of ${bytes.length} bytes`).rejects.toBeInstanceOf(CoverDecodeError);
    }
  });

  it('checks PNG chunk checksums and decodes the pixels', async () => {
    const damaged = Buffer.from(COVER_PNG);
    damaged[30] = damaged[30]! ^ 0xff;
    expect(await problem(damaged)).toBe('its IHDR chunk is damaged (the checksum does not match)');
    expect(await decodeCoverImage(png(4, 3))).toEqual({ type: 'image/png', width: 4, height: 3 });
    // One row short; a row with filter 9; pixels that are not a zlib stream.
    expect(await problem(png(4, 3, Buffer.alloc(2 * 17)))).toBe('its image data is damaged');
    const badFilter = Buffer.alloc(3 * 17);
    badFilter[17] = 9;
    expect(await problem(png(4, 3, badFilter))).toBe('its image data is damaged');
    const notZlib = Buffer.concat([SIGNATURE, chunk('IHDR', png(4, 3).subarray(16, 29)), chunk('IDAT', Buffer.alloc(40, 0x55)), chunk('IEND', Buffer.alloc(0))]);
    expect(await problem(notZlib)).toBe('its image data is damaged');
    // Interlaced: of a 4 × 3 image, Adam7's passes hold rows of 1, 0, 0, 1, 2 (one row), 2 (two rows)
    // and 4 (one row) pixels, each with its filter byte: 5 + 5 + 9 + 18 + 17 bytes.
    expect(await decodeCoverImage(png(4, 3, Buffer.alloc(54), 1))).toMatchObject({ width: 4, height: 3 });
  });

  it('refuses covers of no pixels or of more than 8192 on a side, before decoding their pixels', async () => {
    expect(await problem(png(0, 3, Buffer.alloc(0)))).toBe('its header is damaged');
    // A pixel stream far too short for its claimed size: the size is what is reported.
    expect(await problem(png(20_000, 2, Buffer.alloc(10)))).toBe('it is 20000 × 2 pixels, more than 8192 on a side');
  });

  it('needs a JPEG frame, a scan and its data, and no arithmetic coding', async () => {
    expect(await problem(COVER_JPEG.subarray(0, COVER_JPEG.length - 2))).toMatch(/ends early/);
    const sof = COVER_JPEG.indexOf(Buffer.from([0xff, 0xc0]));
    const arithmetic = Buffer.from(COVER_JPEG);
    arithmetic[sof + 1] = 0xc9;
    expect(await problem(arithmetic)).toMatch(/browsers do not show/);
    expect(await problem(Buffer.concat([COVER_JPEG.subarray(0, 3), Buffer.alloc(500)]))).toMatch(/ends early|header is damaged/);
  });

  it('needs a GIF image', async () => {
    expect(await problem(Buffer.concat([COVER_GIF.subarray(0, 13 + 6), Buffer.from([0x3b])]))).toBe('its header is damaged');
  });

  it('needs a WebP bitstream with a valid header and a RIFF size that fits the file', async () => {
    const wrongStart = Buffer.from(COVER_WEBP_LOSSY);
    const vp8 = wrongStart.indexOf(Buffer.from('VP8 ', 'ascii'));
    wrongStart[vp8 + 8 + 3] = 0;
    expect(await problem(wrongStart)).toBe('its header is damaged');
    const tooLong = Buffer.from(COVER_WEBP_LOSSY);
    tooLong.writeUInt32LE(tooLong.length, 4);
    expect(await problem(tooLong)).toBe('its header is damaged');
  });
});
