import { describe, expect, it } from 'vitest';
import { DEFAULT_SERVER, normalizeServerUrl, resolveServer } from './server-url.js';
import { isUsageError } from './usage-error.js';

describe('normalizeServerUrl', () => {
  it('gives each server one spelling', () => {
    expect(normalizeServerUrl('http://LOCALHOST:3000/')).toBe('http://localhost:3000');
    expect(normalizeServerUrl('localhost:3000')).toBe('http://localhost:3000');
    expect(normalizeServerUrl(' https://wolfpack.example.com:443/ ')).toBe('https://wolfpack.example.com');
    expect(normalizeServerUrl('https://example.com/wolfpack/?x=1#y')).toBe('https://example.com/wolfpack');
  });

  it('rejects what is not an http(s) URL as a usage error', () => {
    for (const bad of ['http://', 'ftp://example.com', 'http://user:pw@example.com']) {
      let error: unknown;
      try {
        normalizeServerUrl(bad);
      } catch (e) {
        error = e;
      }
      expect(isUsageError(error), bad).toBe(true);
    }
  });
});

describe('resolveServer', () => {
  it('takes --server, then WOLFPACK_URL, then the last server, then the default', () => {
    expect(resolveServer({ flag: 'http://f:1', env: 'http://e:1', last: 'http://l:1' })).toBe('http://f:1');
    expect(resolveServer({ env: 'http://e:1', last: 'http://l:1' })).toBe('http://e:1');
    expect(resolveServer({ env: '', last: 'http://l:1' })).toBe('http://l:1');
    expect(resolveServer({})).toBe(DEFAULT_SERVER);
  });
});
