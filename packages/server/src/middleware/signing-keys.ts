import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';

/**
 * The cookie signing keys, as Koa's cookies use them (the `keys` of `new Koa()`): the same
 * signatures as keygrip's defaults (HMAC-SHA1, base64url without padding), so cookies signed
 * before stay valid, but cheaper on every request. Given a plain list, the cookies library builds
 * a keygrip per request, which makes a key object per HMAC and checks a signature with
 * tsscmp (two more HMACs and random bytes): 7.5 % of the event loop's busy time under load in a
 * CPU profile. Here the keys are made once and a signature is checked with one HMAC and
 * a constant-time comparison, and a signature found good is remembered: every request of a
 * session brings the same cookie, and its HMAC was still 5 % of a stream's open under a crowd.
 */
export class SigningKeys {
  private readonly keys: KeyObject[];
  /**
   * Good signatures seen lately (the signature's length, the signature, the data: one pair a
   * key, whatever either holds → the key's position), the oldest dropped
   * first. Only good ones: a forged cookie is checked in full every time. Answering a known good
   * pair sooner tells nothing to whoever does not hold that signature already.
   */
  private readonly good = new Map<string, number>();

  /** `keys`: newest first; the first signs, every one verifies (key rotation). */
  constructor(keys: string[]) {
    if (keys.length === 0) throw new Error('At least one cookie signing key is needed.');
    this.keys = keys.map((key) => createSecretKey(Buffer.from(key, 'utf8')));
  }

  sign(data: string): string {
    return digest(this.keys[0]!, data);
  }

  verify(data: string, signature: string): boolean {
    return this.index(data, signature) !== -1;
  }

  /** The position of the key that made `signature`, or -1. */
  index(data: string, signature: string): number {
    const pair = `${signature.length}:${signature}${data}`;
    const known = this.good.get(pair);
    if (known !== undefined) return known;
    const given = Buffer.from(signature, 'utf8');
    for (let i = 0; i < this.keys.length; i++) {
      const expected = Buffer.from(digest(this.keys[i]!, data), 'utf8');
      if (expected.length === given.length && timingSafeEqual(expected, given)) {
        if (this.good.size >= REMEMBERED) this.good.delete(this.good.keys().next().value!);
        this.good.set(pair, i);
        return i;
      }
    }
    return -1;
  }
}

/** Good signatures remembered: a cookie each for this many sessions in use at once. */
const REMEMBERED = 10_000;

function digest(key: KeyObject, data: string): string {
  return createHmac('sha1', key).update(data).digest('base64url');
}
