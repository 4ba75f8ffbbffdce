import { afterEach, describe, expect, it, vi } from 'vitest';
import { adminErrorMessage, AdminUnauthorizedError, fetchAdminMetrics, NON_ASCII_SECRET, UNAUTHORIZED } from './admin';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('fetchAdminMetrics', () => {
  it('says a secret with other than ASCII characters is wrong, without asking the server', async () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    for (const secret of ['wrong-secret-🐺', 'café', 'tab\there']) {
      const error = await fetchAdminMetrics(secret).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AdminUnauthorizedError);
      expect(adminErrorMessage(error)).toBe(NON_ASCII_SECRET);
    }
    expect(fetchMock).not.toHaveBeenCalled();
    expect(NON_ASCII_SECRET.startsWith(UNAUTHORIZED)).toBe(true);
  });

  it('answers a 401 with the spec word', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response('{"error":"Unauthorized","code":"UNAUTHORIZED"}', { status: 401 })));
    const error = await fetchAdminMetrics('not-the-secret ~!').catch((e: unknown) => e);
    expect(adminErrorMessage(error)).toBe('Unauthorized');
  });
});
