import { MAX_ATTACHMENT_BYTES } from '@wolfpack/core';
import { describe, expect, it } from 'vitest';
import { checkAttachments, formatFileSize, mimeTypeOf } from './attachments';

const file = (name: string, size = 100, type = '') => ({ name, size, type });

describe('checkAttachments', () => {
  it('accepts text, code and image files within the limits', () => {
    const files = [file('notes.md'), file('app.tsx'), file('logo.png', 2000, 'image/png'), file('shot', 10, 'image/webp')];
    expect(checkAttachments(0, files)).toEqual({ accepted: files, problems: [] });
  });

  it("refuses a batch that would exceed 5 files with 'Too Many Files'", () => {
    const result = checkAttachments(3, [file('a.txt'), file('b.txt'), file('c.txt')]);
    expect(result).toEqual({ accepted: [], problems: [{ title: 'Too Many Files', description: 'Maximum 5 files allowed' }] });
    expect(checkAttachments(3, [file('a.txt'), file('b.txt')]).accepted).toHaveLength(2);
  });

  it("skips a file over 5 MB with 'X exceeds 5MB limit' and keeps the others", () => {
    const big = file('big.json', MAX_ATTACHMENT_BYTES + 1);
    const exact = file('exact.json', MAX_ATTACHMENT_BYTES);
    const result = checkAttachments(0, [big, exact]);
    expect(result.accepted).toEqual([exact]);
    expect(result.problems).toEqual([{ title: 'File Too Large', description: 'big.json exceeds 5MB limit' }]);
  });

  it('skips types the spec does not accept', () => {
    const result = checkAttachments(0, [file('tool.exe'), file('archive.zip', 10, 'application/zip')]);
    expect(result.accepted).toEqual([]);
    expect(result.problems.map((p) => p.title)).toEqual(['Unsupported File', 'Unsupported File']);
    expect(result.problems[0]?.description).toMatch(/^tool\.exe is not an accepted file type/);
  });

  it('does nothing for an empty selection', () => {
    expect(checkAttachments(5, [])).toEqual({ accepted: [], problems: [] });
  });
});

describe('file helpers', () => {
  it('fills in a MIME type when the browser gives none', () => {
    expect(mimeTypeOf(file('a.py'))).toBe('text/plain');
    expect(mimeTypeOf(file('a.svg'))).toBe('image/*');
    expect(mimeTypeOf(file('a.json', 1, 'application/json'))).toBe('application/json');
  });

  it('formats sizes', () => {
    expect(formatFileSize(12)).toBe('12 B');
    expect(formatFileSize(3400)).toBe('3 KB');
    expect(formatFileSize(5 * 1024 * 1024)).toBe('5.0 MB');
  });
});
