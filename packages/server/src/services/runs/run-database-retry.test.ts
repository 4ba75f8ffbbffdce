import { describe, expect, it } from 'vitest';
import { retryUnique } from '../../db/database-faults.js';
import { DatabaseGoneError, describeWait, RunDatabaseRetry } from './run-database-retry.js';

/** What node-postgres throws when PostgreSQL is stopped. */
const refused = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
const duplicate = () => Object.assign(new Error('duplicate key value violates unique constraint "run_events_pkey"'), { code: '23505' });

function retryWith(windowMs: number) {
  const seen: string[] = [];
  const retry = new RunDatabaseRetry(windowMs, { onLost: (reason) => seen.push(`lost: ${reason}`), onBack: () => seen.push('back') });
  return { retry, seen };
}

describe('RunDatabaseRetry', () => {
  it('tries a write again while the database is unreachable, and says once that it waits and once that it is back', async () => {
    const { retry, seen } = retryWith(10_000);
    let tries = 0;
    const answer = await Promise.all([
      retry.attempt(async () => (++tries < 4 ? Promise.reject(refused()) : 'stored')),
      retry.attempt(async () => (tries < 3 ? Promise.reject(refused()) : 'also stored')),
    ]);
    expect(answer).toEqual(['stored', 'also stored']);
    expect(tries).toBe(4);
    expect(seen).toEqual(['lost: connect ECONNREFUSED 127.0.0.1:5432', 'back']);
    expect(retry.waiting).toBe(false);
  });

  it('gives up with DatabaseGoneError once the database stayed away for the whole window', async () => {
    const { retry } = retryWith(300);
    const started = Date.now();
    await expect(retry.attempt(() => Promise.reject(refused()))).rejects.toBeInstanceOf(DatabaseGoneError);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('throws any other failure at once', async () => {
    const { retry, seen } = retryWith(10_000);
    let tries = 0;
    const full = Object.assign(new Error('could not extend file "base/5/1249": No space left on device'), { code: '53100' });
    await expect(retry.attempt(() => (tries++, Promise.reject(full)))).rejects.toBe(full);
    expect(tries).toBe(1);
    expect(seen).toEqual([]);
  });

  it('says how long as the feed does', () => {
    expect([describeWait(120_000), describeWait(60_000), describeWait(5_000), describeWait(90_000)]).toEqual(['2 minutes', '1 minute', '5 seconds', '90 seconds']);
  });
});

describe('retryUnique', () => {
  it('takes a unique violation after a lost answer as its own commit when the rows are its own', async () => {
    const { retry } = retryWith(10_000);
    const answers = [refused(), duplicate()];
    await expect(retryUnique((w) => retry.attempt(w), () => Promise.reject(answers.shift()), async () => true)).resolves.toBeUndefined();
  });

  it('throws the unique violation when nothing was lost, or the rows are not its own', async () => {
    const { retry } = retryWith(10_000);
    await expect(retryUnique((w) => retry.attempt(w), () => Promise.reject(duplicate()), async () => true)).rejects.toThrow('duplicate key');
    const answers = [refused(), duplicate()];
    await expect(retryUnique((w) => retry.attempt(w), () => Promise.reject(answers.shift()), async () => false)).rejects.toThrow('duplicate key');
  });
});
