import { describe, expect, it } from 'vitest';
import { crc32, generateNjinApiKey, isWellFormedNjinApiKey, maskNjinKey, NJIN_KEY_LENGTH, njinKeyPrefix, njinKeyProblem } from './api-key.js';

describe('njin API keys', () => {
  it('are njin_ + 22 base62 characters of 128 random bits + a 6-character checksum', () => {
    const key = generateNjinApiKey();
    expect(key).toMatch(/^njin_[0-9A-Za-z]{28}$/);
    expect(key).toHaveLength(NJIN_KEY_LENGTH);
    expect(isWellFormedNjinApiKey(key)).toBe(true);
  });

  it('differ every time and encode all 128 bits (all-zero and all-one bytes still fit)', () => {
    const keys = new Set(Array.from({ length: 200 }, () => generateNjinApiKey()));
    expect(keys.size).toBe(200);
    expect(generateNjinApiKey(new Uint8Array(16))).toBe(`njin_${'0'.repeat(22)}${generateNjinApiKey(new Uint8Array(16)).slice(-6)}`);
    expect(isWellFormedNjinApiKey(generateNjinApiKey(new Uint8Array(16).fill(255)))).toBe(true);
  });

  it('catch every single-character typo and every swap of neighbours with the checksum', () => {
    const key = generateNjinApiKey();
    const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
    for (let i = 5; i < key.length; i += 1) {
      for (const c of alphabet) {
        if (c === key[i]) continue;
        const typo = key.slice(0, i) + c + key.slice(i + 1);
        expect(isWellFormedNjinApiKey(typo), typo).toBe(false);
      }
    }
    for (let i = 5; i < key.length - 1; i += 1) {
      if (key[i] === key[i + 1]) continue;
      const swapped = key.slice(0, i) + key[i + 1] + key[i] + key.slice(i + 2);
      expect(isWellFormedNjinApiKey(swapped)).toBe(false);
    }
  });

  it('say why a key is malformed', () => {
    expect(njinKeyProblem('sk_live_abc')).toMatch(/start with njin_/);
    expect(njinKeyProblem('njin_short')).toMatch(/33 letters and digits/);
    const key = generateNjinApiKey();
    expect(njinKeyProblem(`${key.slice(0, -1)}${key.endsWith('a') ? 'b' : 'a'}`)).toMatch(/typo/);
    expect(njinKeyProblem(key)).toBeNull();
  });

  it('show only a prefix', () => {
    const key = generateNjinApiKey();
    expect(njinKeyPrefix(key)).toBe(key.slice(0, 11));
    expect(maskNjinKey(njinKeyPrefix(key))).toBe(`${key.slice(0, 11)}…`);
  });

  it('use the standard CRC-32', () => {
    expect(crc32('123456789')).toBe(0xcbf43926);
  });
});
