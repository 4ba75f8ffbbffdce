import { readFile, stat } from 'node:fs/promises';
import { basename, extname, resolve } from 'node:path';
import { attachment, isImageAttachment, MAX_ATTACHMENTS, type Attachment } from '@wolfpack/core';
import { UsageError } from './usage-error.js';

/** MIME types by extension for the files the spec accepts (core §5); others are sent as octet-stream and refused. */
const MIME_TYPES: Record<string, string> = {
  txt: 'text/plain',
  md: 'text/markdown',
  json: 'application/json',
  csv: 'text/csv',
  html: 'text/html',
  css: 'text/css',
  js: 'text/javascript',
  jsx: 'text/jsx',
  ts: 'text/typescript',
  tsx: 'text/tsx',
  py: 'text/x-python',
  java: 'text/x-java',
  c: 'text/x-c',
  cpp: 'text/x-c++',
  go: 'text/x-go',
  rb: 'text/x-ruby',
  php: 'text/x-php',
  xml: 'application/xml',
  yaml: 'application/yaml',
  yml: 'application/yaml',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  bmp: 'image/bmp',
  ico: 'image/x-icon',
  avif: 'image/avif',
};

export function mimeTypeOf(filename: string): string {
  return MIME_TYPES[extname(filename).slice(1).toLowerCase()] ?? 'application/octet-stream';
}

/**
 * Reads `--attach` files the way the web page does: at most 5, each at most 5 MB, text and code
 * as text, images as data URLs, with the spec's messages. Sizes and types are checked with core's
 * schema before a file is read, so a huge file is refused without loading it.
 *
 * @throws UsageError naming the first file that cannot be attached and why.
 */
export async function readAttachments(paths: readonly string[], cwd: string): Promise<Attachment[]> {
  if (paths.length > MAX_ATTACHMENTS) throw new UsageError('Maximum 5 files allowed');
  const result: Attachment[] = [];
  for (const path of paths) {
    const full = resolve(cwd, path);
    const filename = basename(full);
    let size: number;
    try {
      const info = await stat(full);
      if (!info.isFile()) throw new UsageError(`Cannot attach ${path}: it is not a file.`);
      size = info.size;
    } catch (error) {
      if (error instanceof UsageError) throw error;
      throw new UsageError(`Cannot attach ${path}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'there is no such file' : (error as Error).message}.`);
    }
    const mimeType = mimeTypeOf(filename);
    check({ filename, content: '', mimeType, size });
    const bytes = await readFile(full);
    const content = isImageAttachment(filename, mimeType) ? `data:${mimeType};base64,${bytes.toString('base64')}` : bytes.toString('utf8');
    result.push(check({ filename, content, mimeType, size: bytes.length }));
  }
  return result;
}

function check(candidate: Attachment): Attachment {
  const parsed = attachment.safeParse(candidate);
  if (!parsed.success) throw new UsageError(parsed.error.issues[0]?.message ?? `${candidate.filename} cannot be attached.`);
  return parsed.data;
}
