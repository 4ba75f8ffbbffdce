import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/** Full collections V8 made in a child that churns 1 GB of short-lived Buffers (testing/buffer-churn.ts). */
function fullCollections(setting: 'on' | 'off'): number {
  const child = spawnSync(process.execPath, ['--conditions=@wolfpack/source', '--import', 'tsx', fileURLToPath(new URL('../../testing/buffer-churn.ts', import.meta.url)), setting], { encoding: 'utf8', timeout: 60_000 });
  expect(child.status, child.stderr).toBe(0);
  return (JSON.parse(child.stdout) as { fullCollections: number }).fullCollections;
}

describe('heap settings', () => {
  it('with Buffers in the heap limit, short-lived Buffers no longer start full collections of their own', () => {
    // Node's default: every few MB of Buffers allocated since the last collection start another.
    const legacy = fullCollections('off');
    const counted = fullCollections('on');
    expect(legacy).toBeGreaterThanOrEqual(5);
    expect(counted).toBeLessThanOrEqual(2);
  });
});
