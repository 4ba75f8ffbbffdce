import { describe, expect, it } from 'vitest';
import { fileUrl, isStaleEdit } from './file-edits';

describe('file edits', () => {
  it('encodes the path as a whole, so the browser resolves no dot segment of it', () => {
    expect(fileUrl('p1', 'src/app one.ts')).toBe('/api/projects/p1/files/src%2Fapp%20one.ts');
    expect(fileUrl('p1', 'a/#b?/c%d')).toBe('/api/projects/p1/files/a%2F%23b%3F%2Fc%25d');
    expect(new URL(fileUrl('p1', '../../etc/passwd'), 'http://x').pathname).toBe('/api/projects/p1/files/..%2F..%2Fetc%2Fpasswd');
  });

  it('knows a 409 from other failures', () => {
    expect(isStaleEdit(new Error('409: {"error":"The project is at version 3","code":"CONFLICT"}'))).toBe(true);
    expect(isStaleEdit(new Error('400: {"error":"bad path"}'))).toBe(false);
    expect(isStaleEdit(new TypeError('Failed to fetch'))).toBe(false);
  });
});
