import { describe, expect, it } from 'vitest';
import { loadConfig } from './env.js';

describe('WOLFPACK_PREVIEW_HOST', () => {
  it('takes a domain of two labels or more, with a port, lower-cased', () => {
    expect(loadConfig({}, { WOLFPACK_PREVIEW_HOST: 'Preview.Example.net' }).previewHost).toBe('preview.example.net');
    expect(loadConfig({}, { WOLFPACK_PREVIEW_HOST: 'preview.example.net:8443' }).previewHost).toBe('preview.example.net:8443');
    expect(loadConfig({}, {}).previewHost).toBeUndefined();
  });

  it('refuses what is not such a name, saying what to set', () => {
    for (const value of ['localhost', 'https://preview.example.net', 'preview.example.net/x', '*.preview.example.net', 'p review.example.net']) {
      expect(() => loadConfig({}, { WOLFPACK_PREVIEW_HOST: value }), value).toThrow(/WOLFPACK_PREVIEW_HOST must be a domain name with at least two labels/);
    }
  });
});
