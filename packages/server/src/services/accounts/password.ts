import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/** scrypt's cost parameters. */
export interface ScryptCost {
  N: number;
  r: number;
  p: number;
}

/**
 * scrypt with N=2^17, r=8, p=1 (OWASP's recommendation): 128 MiB of memory per hash, so maxmem
 * has to be raised above Node's 32 MiB default. Every server uses it; only tests pass a lower cost
 * (startServer's `passwordCost`), where hundreds of sign-ups would otherwise spend minutes hashing.
 */
export const PASSWORD_COST: ScryptCost = { N: 2 ** 17, r: 8, p: 1 };
const KEY_LENGTH = 64;
const SALT_LENGTH = 16;

function scrypt(password: string, salt: Buffer, keylen: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scryptCb(password.normalize('NFKC'), salt, keylen, options, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

/** The memory one hash needs (128 × N × r bytes), with room to spare. */
const maxmem = (cost: ScryptCost) => 256 * cost.N * cost.r;

/** Hashes and checks passwords at one cost. */
export class PasswordHasher {
  private dummy: Promise<string> | undefined;

  constructor(private readonly cost: ScryptCost = PASSWORD_COST) {}

  /** Returns `scrypt$N$r$p$salt$hash` (base64url parts), self-describing so parameters can change later. */
  async hash(password: string): Promise<string> {
    const { N, r, p } = this.cost;
    const salt = randomBytes(SALT_LENGTH);
    const key = await scrypt(password, salt, KEY_LENGTH, { N, r, p, maxmem: maxmem(this.cost) });
    return ['scrypt', N, r, p, salt.toString('base64url'), key.toString('base64url')].join('$');
  }

  /**
   * Constant-time comparison against a stored hash, at the cost the hash records (a hash made
   * before a change of cost still verifies). A malformed hash never matches.
   */
  async verify(password: string, stored: string): Promise<boolean> {
    const parts = stored.split('$');
    if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
    const [, n, r, p, saltText, keyText] = parts as [string, string, string, string, string, string];
    const cost = { N: Number(n), r: Number(r), p: Number(p) };
    const expected = Buffer.from(keyText, 'base64url');
    const key = await scrypt(password, Buffer.from(saltText, 'base64url'), expected.length, { ...cost, maxmem: maxmem(cost) });
    return key.length === expected.length && timingSafeEqual(key, expected);
  }

  /**
   * A hash of a random password, computed once: verifying against it when a username does not
   * exist costs the same time as a real check, so response time does not reveal which usernames exist.
   */
  dummyHash(): Promise<string> {
    this.dummy ??= this.hash(randomBytes(16).toString('hex'));
    return this.dummy;
  }
}
