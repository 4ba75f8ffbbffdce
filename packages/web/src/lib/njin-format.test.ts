import { generateNjinApiKey } from '@wolfpack/core';
import { describe, expect, it } from 'vitest';
import {
  formatExpiry,
  grantedLicenceText,
  iterationsText,
  KEY_REQUIRED,
  keyUsageText,
  njinGrantCommand,
  licenseStatusLabel,
  njinLicenseUrl,
  njinSnippetUrl,
  NJIN_PRICE_TEXT,
  snippetFailure,
  subscribeFailure,
  typedKey,
  validateFailure,
  validateKeyProblem,
  validateOutcome,
} from './njin-format';

const http = (status: number, body = '') => new Error(`${status}: ${body}`);

describe('njin page words (companion §5, §8)', () => {
  it('asks for a key with the spec text', () => {
    expect(KEY_REQUIRED).toEqual({ title: 'API key required', description: 'Please enter your API key first' });
    expect(typedKey('  njin_abc \n')).toBe('njin_abc');
    expect(typedKey('   ')).toBe('');
  });

  it('shows Active only for status active', () => {
    expect(licenseStatusLabel('active')).toBe('Active');
    for (const status of ['inactive', 'canceled', 'past_due', '', null, undefined]) expect(licenseStatusLabel(status)).toBe('Inactive');
  });

  it('validation failures: status for a non-ok answer, the request failing otherwise', () => {
    expect(validateFailure(http(500, 'oops'))).toEqual({ title: 'Validation Failed', description: 'Validation failed with status 500. oops' });
    expect(validateFailure(http(502))).toEqual({ title: 'Validation Failed', description: 'Validation failed with status 502' });
    expect(validateFailure(http(400, '{"error":"njin API keys start with njin_","code":"BAD_REQUEST"}')).description).toBe(
      'Validation failed with status 400. njin API keys start with njin_',
    );
    expect(validateFailure(new TypeError('Failed to fetch'))).toEqual({ title: 'Validation Failed', description: 'Validation request failed' });
  });

  it('a mistyped key is named before the server is asked; a well-formed one is left to it', () => {
    expect(validateKeyProblem('njin_AAAAAAAAAAAAAAAAAAAAAA000000')).toEqual({
      title: 'Validation Failed',
      description: 'This njin API key has a typo (its checksum does not match). Copy it again from the njin page.',
    });
    expect(validateKeyProblem('njin_short')?.description).toMatch(/^An njin API key is \d+ letters and digits long/);
    expect(validateKeyProblem(generateNjinApiKey())).toBeNull();
    expect(validateKeyProblem('not-a-key')).toBeNull();
  });

  it('validation answers: Invalid License, or valid with the usage count', () => {
    expect(validateOutcome({ valid: false, error: 'Invalid License' })).toMatchObject({ ok: false, title: 'Invalid License' });
    expect(validateOutcome({ valid: false, error: 'This key was revoked.' })).toEqual({ ok: false, title: 'Invalid License', description: 'This key was revoked.' });
    expect(validateOutcome({ valid: true, usageCount: 1204 })).toEqual({ ok: true, title: 'Licence Valid', description: 'Your licence is active: 1,204 iterations so far.' });
    expect(validateOutcome({ valid: true, usageCount: 1 }).description).toContain('1 iteration so far');
  });

  it('a key without a license says why and what to do: subscribe, or on a server without payments ask the operator', () => {
    const subscribe = 'This key has no active licence. Check the key, or subscribe on the Usage & Stats tab.';
    expect(validateOutcome({ valid: false, error: 'Invalid License' }, { paymentsConfigured: true })).toEqual({ ok: false, title: 'Invalid License', description: subscribe });
    // Unknown yet (the packs are still loading): the usual advice.
    expect(validateOutcome({ valid: false, error: 'Invalid License' }, {}).description).toBe(subscribe);
    expect(validateOutcome({ valid: false, error: 'Invalid License' }, { paymentsConfigured: false, username: 'alice' })).toEqual({
      ok: false,
      title: 'Invalid License',
      description:
        'This key has no active licence. Licences cannot be bought on this server (payments are not configured): ask its operator to grant you one with wolfpack admin grant-licence alice --until DATE.',
    });
    expect(validateOutcome({ valid: false }, { paymentsConfigured: false }).description).toContain('wolfpack admin grant-licence USER --until DATE');
  });

  it("the operator's grant command names the user when a shell takes the name as it is", () => {
    expect(njinGrantCommand('wolf-pack_1.x')).toBe('wolfpack admin grant-licence wolf-pack_1.x --until DATE');
    for (const name of [null, undefined, '', '-rf', 'Zoë', 'a b']) expect(njinGrantCommand(name), String(name)).toBe('wolfpack admin grant-licence USER --until DATE');
  });

  it('snippet failures: the status, or the error message, or Unknown error', () => {
    expect(snippetFailure(http(404))).toEqual({ title: 'Failed to generate snippet', description: 'Request failed with status 404' });
    expect(snippetFailure(new Error('Network down'))).toEqual({ title: 'Failed to generate snippet', description: 'Failed to fetch snippet: Network down' });
    expect(snippetFailure('weird')).toEqual({ title: 'Failed to generate snippet', description: 'Failed to fetch snippet: Unknown error' });
  });

  it('urls carry the values encoded', () => {
    expect(njinLicenseUrl('wolf pack')).toBe('/api/njin/license?userId=wolf%20pack');
    expect(njinSnippetUrl('njin_a+b&c')).toBe('/api/njin/snippet?apiKey=njin_a%2Bb%26c');
  });

  it('figures: price, iterations, expiry, key usage', () => {
    expect(NJIN_PRICE_TEXT).toBe('$29');
    expect(iterationsText(0)).toBe('0 iterations');
    expect(formatExpiry('2026-12-01T00:00:00.000Z')).toBe('Dec 1, 2026');
    expect(formatExpiry(null)).toBe('No expiry');
    expect(formatExpiry('soon')).toBe('soon');
    expect(keyUsageText(3, null)).toBe('3 iterations · never used');
    expect(keyUsageText(1, '2026-11-03T10:00:00Z')).toBe('1 iteration · last used Nov 3, 2026');
  });

  it('subscribe failure: the server sentence or the generic one', () => {
    expect(subscribeFailure(http(503, '{"error":"Payments are not configured on this server.","code":"SERVICE_UNAVAILABLE"}')).description).toBe(
      'Payments are not configured on this server.',
    );
    expect(subscribeFailure(new Error('x')).description).toBe('Failed to start checkout');
  });
});

describe('grantedLicenceText', () => {
  it('says who granted the licence and the day it runs through (UTC), as 31 Jan 2027', () => {
    expect(grantedLicenceText('2027-01-31T23:59:59.999Z')).toBe('Licence granted by the operator until 31 Jan 2027');
    expect(grantedLicenceText('2026-06-01T00:00:00Z')).toBe('Licence granted by the operator until 1 Jun 2026');
    expect(grantedLicenceText(null)).toBe('Licence granted by the operator, with no end date');
  });
});
