import { describe, expect, it } from 'vitest';
import { DatabaseProbe } from './database-probe.js';

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
});
