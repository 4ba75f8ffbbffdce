import { mkdtemp, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MAX_ATTACHMENT_BYTES } from '@wolfpack/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readAttachments } from './attachments.js';
import { UsageError } from './usage-error.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'wolfpack-attach-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('readAttachments', () => {
  it('reads text as text and images as data URLs, relative to the working folder', async () => {
    await writeFile(join(dir, 'notes.md'), '# Notes ✔\n');
    await writeFile(join(dir, 'logo.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    const attachments = await readAttachments(['notes.md', join(dir, 'logo.png')], dir);
    expect(attachments).toEqual([
      { filename: 'notes.md', content: '# Notes ✔\n', mimeType: 'text/markdown', size: 12 },
      { filename: 'logo.png', content: 'data:image/png;base64,iVBORw==', mimeType: 'image/png', size: 4 },
    ]);
  });

  it('uses the spec’s messages for too many files, too large a file and a type it does not accept', async () => {
    const six = ['a', 'b', 'c', 'd', 'e', 'f'].map((name) => `${name}.txt`);
    await expect(readAttachments(six, dir)).rejects.toThrow(new UsageError('Maximum 5 files allowed'));

    // Sparse: 5 MB + 1 byte without writing them.
    await writeFile(join(dir, 'big.txt'), '');
    await truncate(join(dir, 'big.txt'), MAX_ATTACHMENT_BYTES + 1);
    await expect(readAttachments(['big.txt'], dir)).rejects.toThrow(new UsageError('big.txt exceeds 5MB limit'));

    await writeFile(join(dir, 'tool.exe'), 'MZ');
    await expect(readAttachments(['tool.exe'], dir)).rejects.toThrow(/^tool\.exe is not an accepted file type/);
  });

  it('says which file is missing', async () => {
    await expect(readAttachments(['nope.txt'], dir)).rejects.toThrow('Cannot attach nope.txt: there is no such file.');
    await expect(readAttachments(['.'], dir)).rejects.toThrow('Cannot attach .: it is not a file.');
  });
});
