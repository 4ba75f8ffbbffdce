/**
 * Attachment rules of the build screen (spec core §5, §9): at most 5 files in total, 5 MB each,
 * text and code files read as text, images read as data URLs. The limits and accepted types come
 * from @wolfpack/core, the same rules the server checks.
 */
import {
  ACCEPTED_TEXT_EXTENSIONS,
  MAX_ATTACHMENT_BYTES,
  MAX_ATTACHMENTS,
  isAcceptedAttachment,
  isImageAttachment,
  type Attachment,
} from '@wolfpack/core';

/** What the checks need of a File. */
export interface FileInfo {
  name: string;
  type: string;
  size: number;
}

/** A message for the user about one file or the whole batch. */
export interface AttachmentProblem {
  title: string;
  description: string;
}

export interface AttachmentCheck<F extends FileInfo> {
  /** Files to read, in the order given. */
  accepted: F[];
  problems: AttachmentProblem[];
}

/**
 * Decides which of `files` to attach next to `existingCount` attached ones. A batch that would
 * exceed the limit is refused as a whole ('Too Many Files'); a file over 5 MB or of a type that
 * is not accepted is skipped with its own message.
 */
export function checkAttachments<F extends FileInfo>(existingCount: number, files: readonly F[]): AttachmentCheck<F> {
  if (files.length === 0) return { accepted: [], problems: [] };
  if (existingCount + files.length > MAX_ATTACHMENTS) {
    return { accepted: [], problems: [{ title: 'Too Many Files', description: `Maximum ${MAX_ATTACHMENTS} files allowed` }] };
  }
  const accepted: F[] = [];
  const problems: AttachmentProblem[] = [];
  for (const file of files) {
    if (!isAcceptedAttachment(file.name, file.type)) {
      problems.push({
        title: 'Unsupported File',
        description: `${file.name} is not an accepted file type. Attach text or code files (${ACCEPTED_TEXT_EXTENSIONS.join(', ')}) or images.`,
      });
    } else if (file.size > MAX_ATTACHMENT_BYTES) {
      problems.push({ title: 'File Too Large', description: `${file.name} exceeds 5MB limit` });
    } else {
      accepted.push(file);
    }
  }
  return { accepted, problems };
}

/** The MIME type to send: the browser's, or a sensible one from the extension when it has none. */
export function mimeTypeOf(file: FileInfo): string {
  if (file.type) return file.type;
  return isImageAttachment(file.name, '') ? 'image/*' : 'text/plain';
}

/** Reads a file: images as a data URL, everything else as text. Rejects with 'Failed to read X'. */
export function readAttachment(file: File): Promise<Attachment> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    const fail = () => reject(new Error(`Failed to read ${file.name}`));
    reader.onerror = fail;
    reader.onabort = fail;
    reader.onload = () => {
      if (typeof reader.result !== 'string') return fail();
      resolve({ filename: file.name, content: reader.result, mimeType: mimeTypeOf(file), size: file.size });
    };
    if (isImageAttachment(file.name, file.type)) reader.readAsDataURL(file);
    else reader.readAsText(file);
  });
}

/** '1.2 MB', '340 KB', '12 B' */
export function formatFileSize(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} B`;
}
