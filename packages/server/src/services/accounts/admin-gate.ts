import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { AppError } from '@wolfpack/core';

export interface AdminGateOptions {
  /** Different wrong secrets an address may try within the window before it is slowed down. @default 10 */
  maxFailures?: number;
  /** How long a wrong secret is remembered. @default 15 minutes */
  windowMs?: number;
  /** Once slowed down, an address may try one new secret this often. @default 30 seconds */
  slowIntervalMs?: number;
  /** @default Date.now */
  now?: () => number;
}

interface WrongSecret {
  /** When it was first sent in the window, and how often since. */
  first: number;
  count: number;
}

interface ClientRecord {
  /** The wrong secrets this address sent, by keyed hash. */
  wrong: Map<string, WrongSecret>;
  /** While slowed down: when the next new secret may be checked. */
  nextCheckAt: number;
}

/**
 * Checks the X-Admin-Secret and throttles guessing per (client address, secret tried).
 *
 * Behind a reverse proxy every administrator has the proxy's address, so a lock-out per address
 * meant that a colleague's ten typos (or a script retrying a stale secret) locked everybody out
 * for 15 minutes, the right secret included. Instead:
 * - A secret that this address already sent wrong is answered 401 without being compared again
 *   (it teaches nothing), and 429 once it was sent ten times, to stop a script stuck on it. It
 *   never slows anything else down.
 * - Different wrong secrets are guesses. After ten in the window, the address may try only one
 *   new secret every 30 seconds; the others get 429 with Retry-After, unchecked. The right
 *   secret is a new secret too, so it works from that address as soon as the address is not
 *   sending a new guess every 30 seconds, and is refused only while somebody there is guessing
 *   that fast. That is the least any limit can do: a limit that let the right secret through
 *   while refusing wrong ones would tell a guesser which guess was right. A success neither uses
 *   up the slot nor counts; it clears the address's wrong secrets.
 * - A request without a secret is a 401 and counts for nothing: it guesses nothing.
 *
 * The secret is always compared in constant time (digests of equal length). Wrong secrets are
 * remembered only as an HMAC under a key of this process. The records are kept in memory, not in
 * a table: one secret per server, nothing worth keeping across a restart; several servers each
 * count their own.
 */
export class AdminGate {
  private readonly clients = new Map<string, ClientRecord>();
  private readonly expected: Buffer;
  private readonly hashKey = randomBytes(32);
  private readonly maxFailures: number;
  private readonly windowMs: number;
  private readonly slowIntervalMs: number;
  private readonly now: () => number;

  constructor(
    private readonly secret: string,
    options: AdminGateOptions = {},
  ) {
    this.expected = digest(secret);
    this.maxFailures = options.maxFailures ?? 10;
    this.windowMs = options.windowMs ?? 15 * 60_000;
    this.slowIntervalMs = options.slowIntervalMs ?? 30_000;
    this.now = options.now ?? Date.now;
  }

  /** Returns for the right secret; throws 401 for a wrong or missing one, 429 while throttled. */
  check(client: string, given: string | undefined): void {
    if (this.secret === '' || given === undefined || given === '') throw new AppError('UNAUTHORIZED', 'Unauthorized');
    const now = this.now();
    const record = this.record(client, now);
    const key = createHmac('sha256', this.hashKey).update(given, 'utf8').digest('base64url');
    const known = record.wrong.get(key);
    if (known !== undefined) {
      known.count += 1;
      if (known.count > this.maxFailures) {
        const retryAfterSeconds = seconds(known.first + this.windowMs - now);
        throw new AppError(
          'TOO_MANY_REQUESTS',
          `This admin secret is wrong and was sent ${known.count} times. Check the secret (WOLFPACK_ADMIN_SECRET, or "adminSecret" in the server's secrets.json) instead of retrying.`,
          { retryAfterSeconds },
        );
      }
      throw new AppError('UNAUTHORIZED', 'Unauthorized');
    }
    if (record.wrong.size > this.maxFailures && now < record.nextCheckAt) {
      const retryAfterSeconds = seconds(record.nextCheckAt - now);
      throw new AppError('TOO_MANY_REQUESTS', `Too many wrong admin secrets from this address. Try again in ${retryAfterSeconds} second(s).`, { retryAfterSeconds });
    }
    // Digests have equal lengths, so the comparison time says nothing about the secret's length.
    if (timingSafeEqual(digest(given), this.expected)) {
      this.clients.delete(client);
      return;
    }
    record.wrong.set(key, { first: now, count: 1 });
    // From the eleventh wrong secret on, each one holds the address back for the interval.
    if (record.wrong.size > this.maxFailures) record.nextCheckAt = now + this.slowIntervalMs;
    this.clients.set(client, record);
    if (this.clients.size > 10_000) this.prune(now);
    throw new AppError('UNAUTHORIZED', 'Unauthorized');
  }

  /** The address's record with the secrets older than the window forgotten. */
  private record(client: string, now: number): ClientRecord {
    const record = this.clients.get(client) ?? { wrong: new Map(), nextCheckAt: 0 };
    for (const [key, wrong] of record.wrong) if (now - wrong.first >= this.windowMs) record.wrong.delete(key);
    return record;
  }

  private prune(now: number): void {
    for (const [client, record] of this.clients) {
      if ([...record.wrong.values()].every((wrong) => now - wrong.first >= this.windowMs)) this.clients.delete(client);
    }
  }
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

function seconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}
