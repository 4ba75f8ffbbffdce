/**
 * njin API keys: `njin_` + 22 base62 characters (128 random bits) + a 6-character base62 CRC-32
 * of those 22. The prefix makes a leaked key recognisable to secret scanners; the checksum lets
 * a server (or a client) reject a mistyped key without any database lookup. Pure and
 * browser-safe: no node: imports, randomness from Web Crypto.
 */
import { NJIN_KEY_PREFIX } from '../schemas/njin.js';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** 62^22 > 2^128: 22 characters hold 16 random bytes. */
export const NJIN_KEY_BODY_LENGTH = 22;
/** 62^6 > 2^32: 6 characters hold a CRC-32. */
export const NJIN_KEY_CHECKSUM_LENGTH = 6;
export const NJIN_KEY_LENGTH = NJIN_KEY_PREFIX.length + NJIN_KEY_BODY_LENGTH + NJIN_KEY_CHECKSUM_LENGTH;
/** How much of a key is shown in lists and on the licence: enough to tell keys apart, too little to use. */
export const NJIN_KEY_VISIBLE_LENGTH = NJIN_KEY_PREFIX.length + 6;

const KEY_PATTERN = new RegExp(`^${NJIN_KEY_PREFIX}[0-9A-Za-z]{${NJIN_KEY_BODY_LENGTH + NJIN_KEY_CHECKSUM_LENGTH}}$`);

function toBase62(value: bigint, width: number): string {
  let out = '';
  let rest = value;
  while (rest > 0n) {
    out = BASE62[Number(rest % 62n)]! + out;
    rest /= 62n;
  }
  return out.padStart(width, '0');
}

let crcTable: Uint32Array | undefined;

/** CRC-32 (IEEE 802.3, as zlib) of a string's UTF-8 bytes. */
export function crc32(text: string): number {
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n += 1) {
      let c = n;
      for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  let crc = 0xffffffff;
  for (const byte of new TextEncoder().encode(text)) crc = crcTable[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** The 6-character checksum of a key body. */
export function njinKeyChecksum(body: string): string {
  return toBase62(BigInt(crc32(body)), NJIN_KEY_CHECKSUM_LENGTH);
}

/**
 * A new key. `randomBytes` is for tests; by default 16 bytes come from Web Crypto.
 */
export function generateNjinApiKey(randomBytes: Uint8Array = globalThis.crypto.getRandomValues(new Uint8Array(16))): string {
  if (randomBytes.length < 16) throw new Error('An njin key needs at least 16 random bytes');
  let value = 0n;
  for (const byte of randomBytes.subarray(0, 16)) value = (value << 8n) | BigInt(byte);
  const body = toBase62(value, NJIN_KEY_BODY_LENGTH);
  return `${NJIN_KEY_PREFIX}${body}${njinKeyChecksum(body)}`;
}

/** Why a key cannot be one this server issued, or null when its shape and checksum are right. */
export function njinKeyProblem(key: string): string | null {
  if (!key.startsWith(NJIN_KEY_PREFIX)) return 'njin API keys start with njin_.';
  if (!KEY_PATTERN.test(key)) return `An njin API key is ${NJIN_KEY_LENGTH} letters and digits long, starting with njin_. Copy it again from the njin page.`;
  const body = key.slice(NJIN_KEY_PREFIX.length, NJIN_KEY_PREFIX.length + NJIN_KEY_BODY_LENGTH);
  const checksum = key.slice(NJIN_KEY_PREFIX.length + NJIN_KEY_BODY_LENGTH);
  if (njinKeyChecksum(body) !== checksum) return 'This njin API key has a typo (its checksum does not match). Copy it again from the njin page.';
  return null;
}

/** True when `key` has the shape and checksum of an issued key (not that it exists or is live). */
export function isWellFormedNjinApiKey(key: string): boolean {
  return njinKeyProblem(key) === null;
}

/** The visible start of a key ("njin_a1B2c3"), stored beside its hash for lists. */
export function njinKeyPrefix(key: string): string {
  return key.slice(0, NJIN_KEY_VISIBLE_LENGTH);
}

/** A key as shown once it has been issued: its prefix and an ellipsis. */
export function maskNjinKey(prefix: string): string {
  return `${prefix}…`;
}
