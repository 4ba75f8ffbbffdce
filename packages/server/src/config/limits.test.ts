import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { loadLimits } from './limits.js';

describe('loadLimits', () => {
  it('counts capsule views and shares per UTC day unless the operator sets another period', () => {
    expect(loadLimits({}).capsuleCountHours).toBe(24);
    expect(loadLimits({ WOLFPACK_CAPSULE_COUNT_HOURS: '6' }).capsuleCountHours).toBe(6);
  });

  it('refuses a period that is not a whole number of hours from 1 to 8760, naming the variable', () => {
    for (const value of ['0', '1.5', 'day', '8761']) {
      expect(() => loadLimits({ WOLFPACK_CAPSULE_COUNT_HOURS: value })).toThrow(/WOLFPACK_CAPSULE_COUNT_HOURS/);
    }
  });

  it('stops previewed servers after 10 idle minutes, 3 at once and 2 builds at once unless the operator says otherwise', () => {
    expect(loadLimits({})).toMatchObject({ previewIdleMs: 300_000, previewServers: 3, previewBuilds: 2 });
    expect(loadLimits({ WOLFPACK_PREVIEW_IDLE_MINUTES: '0.5', WOLFPACK_PREVIEW_SERVERS: '8', WOLFPACK_PREVIEW_BUILDS: '1' })).toMatchObject({
      previewIdleMs: 30_000,
      previewServers: 8,
      previewBuilds: 1,
    });
  });

  it('runs Proven Code on half the CPUs at once (at least one) unless the operator says how many', () => {
    expect(loadLimits({}).proofConcurrency).toBe(Math.max(1, Math.floor(availableParallelism() / 2)));
    expect(loadLimits({ WOLFPACK_PROOF_CONCURRENCY: '4' }).proofConcurrency).toBe(4);
    for (const value of ['0', '1.5', 'many']) expect(() => loadLimits({ WOLFPACK_PROOF_CONCURRENCY: value })).toThrow(/WOLFPACK_PROOF_CONCURRENCY/);
  });

  it('gives each user 2 sandboxes running or waiting and 2 preview servers unless the operator says how many', () => {
    expect(loadLimits({})).toMatchObject({ sandboxesPerUser: 2, previewServersPerUser: 2 });
    expect(loadLimits({ WOLFPACK_SANDBOXES_PER_USER: '5', WOLFPACK_PREVIEW_SERVERS_PER_USER: '1' })).toMatchObject({ sandboxesPerUser: 5, previewServersPerUser: 1 });
    for (const name of ['WOLFPACK_SANDBOXES_PER_USER', 'WOLFPACK_PREVIEW_SERVERS_PER_USER']) {
      for (const value of ['0', '1.5', 'few']) expect(() => loadLimits({ [name]: value })).toThrow(new RegExp(name));
    }
  });

  it('keeps Proven Code’s thread 60 s after its last project unless the operator sets another time or 0 (no thread)', () => {
    expect(loadLimits({}).proofThreadIdleMs).toBe(60_000);
    expect(loadLimits({ WOLFPACK_PROOF_THREAD_IDLE_SECONDS: '0.5' }).proofThreadIdleMs).toBe(500);
    expect(loadLimits({ WOLFPACK_PROOF_THREAD_IDLE_SECONDS: '0' }).proofThreadIdleMs).toBeUndefined();
    for (const value of ['-1', 'never']) expect(() => loadLimits({ WOLFPACK_PROOF_THREAD_IDLE_SECONDS: value })).toThrow(/WOLFPACK_PROOF_THREAD_IDLE_SECONDS/);
  });

  it('refuses preview settings that would silently mean something else, naming the variable', () => {
    for (const [name, value] of [
      ['WOLFPACK_PREVIEW_IDLE_MINUTES', '0'],
      ['WOLFPACK_PREVIEW_IDLE_MINUTES', 'ten'],
      ['WOLFPACK_PREVIEW_SERVERS', '0'],
      ['WOLFPACK_PREVIEW_SERVERS', '2.5'],
      ['WOLFPACK_PREVIEW_BUILDS', '-1'],
      ['WOLFPACK_PREVIEW_CPU_PERCENT', 'half'],
      ['WOLFPACK_PREVIEW_CPU_WINDOW_SECONDS', '0'],
      ['WOLFPACK_PROOF_SANDBOX_MEMORY_BYTES', '1G'],
      ['WOLFPACK_PROOF_SANDBOX_MEMORY_BYTES', '1024'],
      ['WOLFPACK_PROOF_SANDBOX_PROCESSES', '4'],
      ['WOLFPACK_PROOF_SANDBOX_CPU_PERCENT', '0'],
      ['WOLFPACK_PROOF_CGROUP', 'v1'],
    ] as const) {
      expect(() => loadLimits({ [name]: value }), `${name}=${value}`).toThrow(new RegExp(name));
    }
  });
});
