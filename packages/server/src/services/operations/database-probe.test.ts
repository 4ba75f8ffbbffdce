import { describe, expect, it } from 'vitest';
import { DatabaseProbe, unfitReason } from './database-probe.js';

/** A question whose answers the test releases one by one, counting how often it was asked. */
function question() {
  const pending: Array<{ resolve: () => void; reject: (error: Error) => void }> = [];
  const ask = () => new Promise<void>((resolve, reject) => pending.push({ resolve, reject }));
  return { ask, pending };
}

describe('DatabaseProbe', () => {
  it('probes that arrive together share one question', async () => {
    const q = question();
    const probe = new DatabaseProbe(q.ask, 1_000, () => 0);
    const checks = [probe.check(), probe.check(), probe.check()];
    expect(q.pending).toHaveLength(1);
    q.pending[0]!.resolve();
    await Promise.all(checks);
  });

  it('an answer holds for freshMs, then the database is asked again', async () => {
    const q = question();
    let now = 0;
    const probe = new DatabaseProbe(q.ask, 1_000, () => now);
    const first = probe.check();
    q.pending[0]!.resolve();
    await first;
    now = 999;
    await probe.check();
    expect(q.pending).toHaveLength(1);
    now = 1_000;
    const again = probe.check();
    expect(q.pending).toHaveLength(2);
    q.pending[1]!.resolve();
    await again;
  });

  it('a failure reaches every waiting probe and is not kept', async () => {
    const q = question();
    const probe = new DatabaseProbe(q.ask, 1_000, () => 0);
    const checks = [probe.check(), probe.check()];
    q.pending[0]!.reject(new Error('connection refused'));
    for (const check of checks) await expect(check).rejects.toThrow('connection refused');
    const next = probe.check();
    expect(q.pending).toHaveLength(2);
    q.pending[1]!.resolve();
    await next;
  });

  it('a write refused for disk space fails the probes for 30 s, with the reason, while select 1 still answers', async () => {
    const q = question();
    let now = 0;
    const probe = new DatabaseProbe(q.ask, 1_000, () => now);
    probe.noteDiskFull(new Error('connection refused'));
    probe.noteDiskFull(Object.assign(new Error('could not extend file "base/5/16535": No space left on device'), { code: '53100' }));
    await expect(probe.check()).rejects.toThrow('The database cannot store data: its disk is full (could not extend file "base/5/16535": No space left on device).');
    expect(unfitReason(await probe.check().catch((e: unknown) => e))).toMatch(/^The database cannot store data/);
    expect(q.pending).toHaveLength(0);
    now = 30_000;
    const later = probe.check();
    q.pending[0]!.resolve();
    await later;
    expect(unfitReason(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }))).toBe('The database cannot be reached: connect ECONNREFUSED 127.0.0.1:5432');
  });
});
