import { createHash, randomBytes } from 'node:crypto';

/** SHA-256 hex of a high-entropy secret (session key, API token); enough since it is not guessable. */
export function hashKey(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** A random secret of `bytes` bytes (default 32 = 256 bits), base64url, with an optional prefix. */
export function randomSecret(prefix = '', bytes = 32): string {
  return prefix + randomBytes(bytes).toString('base64url');
}
