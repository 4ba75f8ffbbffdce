import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { describe, expect, it } from 'vitest';
import { SigningKeys } from './signing-keys.js';

/** The Set-Cookie lines of a Koa app whose only route sets a signed cookie `sid=value`. */
async function signedBy(keys: string[] | SigningKeys, value: string): Promise<Record<string, string>> {
  const app = new Koa({ keys: keys as string[] });
  app.use((ctx) => {
    ctx.cookies.set('sid', value, { signed: true });
    ctx.body = 'ok';
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  try {
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    return Object.fromEntries(res.headers.getSetCookie().map((line) => line.split(';')[0]!.split('=') as [string, string]));
  } finally {
    await new Promise<void>((r) => server.close(() => r()));
  }
}

/** Whether a Koa app with these keys reads the cookie back as signed. */
async function reads(keys: string[] | SigningKeys, cookie: string): Promise<string | undefined> {
  const app = new Koa({ keys: keys as string[] });
  app.use((ctx) => {
    ctx.body = ctx.cookies.get('sid', { signed: true }) ?? '(none)';
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  try {
    const text = await (await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, { headers: { cookie } })).text();
    return text === '(none)' ? undefined : text;
  } finally {
    await new Promise<void>((r) => server.close(() => r()));
  }
}

describe('SigningKeys', () => {
  const keys = ['newest-key-0123456789abcdef', 'older-key-fedcba9876543210'];

  it('signs cookies exactly as Koa did with a plain key list (keygrip), so signed-in users stay signed in', async () => {
    const before = await signedBy(keys, 'abc123');
    const after = await signedBy(new SigningKeys(keys), 'abc123');
    expect(after['sid.sig']).toBe(before['sid.sig']);
    expect(new SigningKeys(keys).sign('sid=abc123')).toBe(before['sid.sig']);
    expect(await reads(new SigningKeys(keys), `sid=abc123; sid.sig=${before['sid.sig']}`)).toBe('abc123');
    expect(await reads(keys, `sid=abc123; sid.sig=${after['sid.sig']}`)).toBe('abc123');
  });

  it('accepts a signature of an older key (rotation) and refuses forged, truncated or foreign ones', async () => {
    const signing = new SigningKeys(keys);
    const old = new SigningKeys([keys[1]!]).sign('sid=abc123');
    expect(signing.index('sid=abc123', signing.sign('sid=abc123'))).toBe(0);
    expect(signing.index('sid=abc123', old)).toBe(1);
    expect(signing.verify('sid=abc124', signing.sign('sid=abc123'))).toBe(false);
    expect(signing.verify('sid=abc123', signing.sign('sid=abc123').slice(1))).toBe(false);
    expect(signing.verify('sid=abc123', '')).toBe(false);
    expect(signing.verify('sid=abc123', new SigningKeys(['someone-else-entirely']).sign('sid=abc123'))).toBe(false);
    expect(await reads(signing, `sid=abc123; sid.sig=${signing.sign('sid=abc999')}`)).toBeUndefined();
  });

  it('remembers good signatures only: a forged one is refused after the good one, and each keeps its key', () => {
    const signing = new SigningKeys(keys);
    const good = signing.sign('sid=abc123');
    const old = new SigningKeys([keys[1]!]).sign('sid=abc123');
    for (let round = 0; round < 2; round++) {
      expect(signing.index('sid=abc123', good)).toBe(0);
      expect(signing.index('sid=abc123', old)).toBe(1);
      expect(signing.verify('sid=abc12', good)).toBe(false);
      expect(signing.verify('sid=abc123', `${good.slice(0, -1)}${good.endsWith('A') ? 'B' : 'A'}`)).toBe(false);
      // The same characters split elsewhere between the data and the signature.
      expect(signing.verify(`sid=abc123${good.slice(0, 2)}`, good.slice(2))).toBe(false);
      expect(signing.verify('sid=abc1', `23${good}`)).toBe(false);
    }
    // Past the number it remembers, the oldest are checked again in full, still right.
    for (let i = 0; i < 10_050; i++) expect(signing.verify(`sid=${i}`, signing.sign(`sid=${i}`))).toBe(true);
    expect(signing.index('sid=abc123', old)).toBe(1);
    expect(signing.verify('sid=0', signing.sign('sid=1'))).toBe(false);
  });

  it('needs a key', () => {
    expect(() => new SigningKeys([])).toThrow(/key/);
  });
});
