import Keygrip from 'keygrip';
import { describe, expect, it } from 'vitest';
import { sessionKeygrip } from './session-keygrip.js';

const NEW = 'n'.repeat(43);
const OLD = 'o'.repeat(43);
const data = 'wolfpack.sess=eyJ1c2VySWQiOjF9';

describe('sessionKeygrip', () => {
  it('signs as Keygrip does and finds which key signed, so rotated keys keep their sessions', () => {
    const grip = sessionKeygrip([NEW, OLD]);
    const plain = new Keygrip([NEW, OLD]);
    expect(grip.sign(data)).toBe(plain.sign(data));
    expect(grip.index(data, new Keygrip([NEW]).sign(data))).toBe(0);
    expect(grip.index(data, new Keygrip([OLD]).sign(data))).toBe(1);
    expect(grip.verify(data, new Keygrip([OLD]).sign(data))).toBe(true);
  });

  it('refuses a signature that another key made, that was altered, cut short or is not one', () => {
    const grip = sessionKeygrip([NEW, OLD]);
    const signed = grip.sign(data);
    const flipped = `${signed.slice(0, -1)}${signed.endsWith('A') ? 'B' : 'A'}`;
    for (const digest of [new Keygrip(['x'.repeat(43)]).sign(data), flipped, signed.slice(0, -1), '', 'é'.repeat(27)]) {
      expect(grip.index(data, digest)).toBe(-1);
      expect(grip.verify(data, digest)).toBe(false);
    }
    // The same signature on other data is no signature.
    expect(grip.verify(`${data}2`, signed)).toBe(false);
  });
});
