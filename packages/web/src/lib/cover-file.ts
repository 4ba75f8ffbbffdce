/**
 * A cover is checked when it is chosen, not when the form is sent: its type and size, then its
 * first bytes (a text file renamed .png says it is a PNG and is not one), then the browser decodes
 * it. What passes is read as a data URL labelled with the type its bytes have.
 */
import { COVER_IMAGE_MAX_SIDE, sniffCoverImage } from '@wolfpack/core';
import { coverFileProblem } from './showcase-listing-form';

export type CoverFileCheck = { ok: true; dataUrl: string } | { ok: false; problem: string };

const NOT_AN_IMAGE = 'is not a PNG, JPEG, WebP or GIF image (its contents are not an image, whatever its name says). Choose an image file.';

/** Decodes `blob` as the browser would show it: its size in pixels, or null when it does not decode. */
async function decodedSize(blob: Blob): Promise<{ width: number; height: number } | null> {
  try {
    const bitmap = await createImageBitmap(blob);
    const size = { width: bitmap.width, height: bitmap.height };
    bitmap.close();
    return size;
  } catch {
    return null;
  }
}

function readDataUrl(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => (typeof reader.result === 'string' ? resolve(reader.result) : reject(new Error('not a data URL')));
    reader.onerror = () => reject(reader.error ?? new Error('unreadable'));
    reader.readAsDataURL(blob);
  });
}

export async function checkCoverFile(file: File): Promise<CoverFileCheck> {
  const problem = coverFileProblem(file);
  if (problem) return { ok: false, problem };
  const name = `"${file.name}"`;
  try {
    const type = sniffCoverImage(new Uint8Array(await file.slice(0, 16).arrayBuffer()));
    if (!type) return { ok: false, problem: `${name} ${NOT_AN_IMAGE}` };
    const image = new Blob([file], { type });
    const size = await decodedSize(image);
    if (!size) return { ok: false, problem: `${name} starts like an image but does not open as one (it is damaged or cut short). Choose another file.` };
    if (size.width > COVER_IMAGE_MAX_SIDE || size.height > COVER_IMAGE_MAX_SIDE) {
      return { ok: false, problem: `${name} is ${size.width} × ${size.height} pixels; a cover can be at most ${COVER_IMAGE_MAX_SIDE} pixels on a side.` };
    }
    return { ok: true, dataUrl: await readDataUrl(image) };
  } catch {
    return { ok: false, problem: 'The image could not be read. Choose another file.' };
  }
}
