import { describe, expect, it } from 'vitest';
import { njinLicenseReply, njinSnippetQuery, njinValidateReply, njinValidateRequest } from './njin.js';

describe('njin', () => {
  it('parses a licence and its absence', () => {
    const license = { apiKey: 'njin_abc123', status: 'active', usageCount: '42', expiresAt: '2026-12-01T00:00:00Z' };
    expect(njinLicenseReply.parse({ license }).license).toEqual({ ...license, usageCount: 42 });
    expect(njinLicenseReply.parse({ license: null }).license).toBeNull();
  });

  it("requires a key, with 'Please enter your API key first' when blank", () => {
    expect(njinValidateRequest.safeParse({ apiKey: '  ' }).error?.issues[0]?.message).toBe('Please enter your API key first');
    expect(njinValidateRequest.safeParse({ apiKey: 'sk_live_123' }).error?.issues[0]?.message).toBe(
      'njin API keys start with njin_',
    );
    expect(njinSnippetQuery.parse({ apiKey: ' njin_k ' })).toEqual({ apiKey: 'njin_k' });
  });

  it('parses validation results', () => {
    expect(njinValidateReply.parse({ valid: true, usageCount: 3 })).toEqual({ valid: true, usageCount: 3 });
    expect(njinValidateReply.parse({ valid: false, error: 'Invalid License' })).toEqual({ valid: false, error: 'Invalid License' });
  });
});
