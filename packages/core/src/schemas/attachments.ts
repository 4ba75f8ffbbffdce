/** A run's attached files: what is accepted and how big (spec core §3 Attachment, §5, §9). */
import { z } from 'zod';

export const MAX_ATTACHMENTS = 5;
export const MAX_ATTACHMENT_BYTES = 5 * 1024 * 1024;
/**
 * Upper bound on `content` length: an image arrives as a base64 data URL, 4/3 of its size plus a
 * short header. Stops a client from lying about `size` to smuggle in a larger body.
 */
export const MAX_ATTACHMENT_CONTENT_CHARS = Math.ceil((MAX_ATTACHMENT_BYTES * 4) / 3) + 256;

/** Extensions read as text (spec core §5). */
export const ACCEPTED_TEXT_EXTENSIONS = [
  'txt', 'md', 'json', 'csv', 'html', 'css', 'js', 'ts', 'tsx', 'jsx', 'py', 'java', 'c', 'cpp',
  'go', 'rb', 'php', 'xml', 'yaml', 'yml',
] as const;
/** Image extensions; images are read as data URLs. Any `image/*` MIME type is accepted too. */
export const ACCEPTED_IMAGE_EXTENSIONS = ['png', 'jpg', 'jpeg', 'gif', 'webp', 'svg', 'bmp', 'ico', 'avif'] as const;
export const ACCEPTED_ATTACHMENT_EXTENSIONS = [...ACCEPTED_TEXT_EXTENSIONS, ...ACCEPTED_IMAGE_EXTENSIONS] as const;

/** For an `<input type="file" accept>` attribute. */
export const ATTACHMENT_ACCEPT_ATTRIBUTE = ['image/*', ...ACCEPTED_TEXT_EXTENSIONS.map((ext) => `.${ext}`)].join(',');

function extensionOf(filename: string): string {
  const dot = filename.lastIndexOf('.');
  return dot < 0 ? '' : filename.slice(dot + 1).toLowerCase();
}

/** Whether a file of this name and MIME type is read as an image (data URL) rather than text. */
export function isImageAttachment(filename: string, mimeType: string): boolean {
  return (
    mimeType.toLowerCase().startsWith('image/') ||
    (ACCEPTED_IMAGE_EXTENSIONS as readonly string[]).includes(extensionOf(filename))
  );
}

/** Whether the spec accepts a file of this name and MIME type as an attachment (core §5). */
export function isAcceptedAttachment(filename: string, mimeType: string): boolean {
  return (
    isImageAttachment(filename, mimeType) ||
    (ACCEPTED_TEXT_EXTENSIONS as readonly string[]).includes(extensionOf(filename))
  );
}

/**
 * The bytes an attachment's content stands for, whatever its `size` says: a base64 data URL's
 * decoded payload, or text's UTF-8 length. The limit is checked against the larger of the two.
 */
export function attachmentContentBytes(content: string): number {
  const comma = content.startsWith('data:') ? content.indexOf(',') : -1;
  if (comma > 0 && content.slice(0, comma).endsWith(';base64')) {
    const payload = content.length - comma - 1;
    const padding = content.endsWith('==') ? 2 : content.endsWith('=') ? 1 : 0;
    return Math.max(0, Math.floor((payload * 3) / 4) - padding);
  }
  // UTF-8 never takes fewer bytes than UTF-16 code units, so text this long is over without counting.
  if (content.length > MAX_ATTACHMENT_BYTES) return content.length;
  return new TextEncoder().encode(content).byteLength;
}

export const attachment = z
  .object({
    filename: z.string().trim().min(1, 'Every attachment needs a file name').max(255, 'File names must be at most 255 characters'),
    /** Text, or an image as a data URL. */
    content: z.string(),
    mimeType: z.string().max(255),
    size: z.int().nonnegative(),
  })
  .check((ctx) => {
    const { filename, mimeType, size, content } = ctx.value;
    // `size` is what the client says; the content is what it sent (a client may say less than it sends).
    if (size > MAX_ATTACHMENT_BYTES || content.length > MAX_ATTACHMENT_CONTENT_CHARS || attachmentContentBytes(content) > MAX_ATTACHMENT_BYTES) {
      ctx.issues.push({ code: 'custom', message: `${filename} exceeds 5MB limit`, path: ['size'], input: size });
    }
    if (!isAcceptedAttachment(filename, mimeType)) {
      ctx.issues.push({
        code: 'custom',
        message: `${filename} is not an accepted file type. Attach text or code files (${ACCEPTED_TEXT_EXTENSIONS.join(', ')}) or images.`,
        path: ['filename'],
        input: filename,
      });
    }
  });
export type Attachment = z.infer<typeof attachment>;

export const attachments = z.array(attachment).max(MAX_ATTACHMENTS, 'Maximum 5 files allowed');
