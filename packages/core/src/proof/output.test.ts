import { describe, expect, it } from 'vitest';
import { limitSentence } from './output.js';
import type { SandboxResult } from './sandbox.js';

const stoppedAt = (extra: Partial<SandboxResult>): SandboxResult => ({ exitCode: null, signal: 'SIGKILL', stdout: '', stderr: '', durationMs: 0, outputTruncated: false, command: 'npm run build', stopped: 'time', ...extra });

describe('limitSentence', () => {
  it('names the limit a run was stopped at, and the time given back to a starved run beside it', () => {
    expect(limitSentence(stoppedAt({}), 30_000)).toBe('it was still running after 30 s and was stopped (the time limit)');
    // The run went on past its limit by what it waited for a CPU: the sentence says how long it ran, and why.
    expect(limitSentence(stoppedAt({ givenBackMs: 41_260 }), 30_000)).toBe(
      'it was still running after 71.3 s (its 30 s, and 41.3 s more for the time it waited for a CPU on a busy machine) and was stopped (the time limit)',
    );
    expect(limitSentence(stoppedAt({ stopped: undefined, exitCode: 1 }), 30_000)).toBeUndefined();
  });
});
