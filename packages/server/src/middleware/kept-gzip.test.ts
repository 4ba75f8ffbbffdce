import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { KeptGzip } from './kept-gzip.js';

const json = (i: number) => Buffer.from(JSON.stringify({ projects: Array.from({ length: 50 }, (_, n) => ({ id: `${i}-${n}`, idea: `Recipe app ${i} number ${n}` })) }));

describe('KeptGzip', () => {
  it('makes each answer a whole gzip member of its own, whatever came through the stream before', async () => {
    const kept = new KeptGzip(1, 2);
    // Alike answers one after another: a later one must not point back into an earlier one.
    for (let i = 0; i < 20; i++) {
      const data = json(i % 3);
      const gz = await kept.gzip(data);
      expect(gunzipSync(gz).equals(data), `answer ${i}`).toBe(true);
      expect(gz.length).toBeLessThan(data.length / 4);
    }
  });

  it('serves more answers at once than it has streams, large and incompressible ones too', async () => {
    const kept = new KeptGzip(1, 2);
    const answers = [...Array.from({ length: 30 }, (_, i) => json(i)), randomBytes(300_000), Buffer.from('x'.repeat(2_000_000)), Buffer.alloc(1)];
    const zipped = await Promise.all(answers.map((data) => kept.gzip(data)));
    zipped.forEach((gz, i) => expect(gunzipSync(gz).equals(answers[i]!), `answer ${i}`).toBe(true));
  });

  it('writes what the gzip tool itself accepts (CRC-32 and length checked)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'wolfpack-kept-gzip-'));
    try {
      const kept = new KeptGzip(1);
      await kept.gzip(json(1));
      const file = join(dir, 'answer.gz');
      await writeFile(file, await kept.gzip(json(2)));
      const check = spawnSync('gzip', ['-t', file], { encoding: 'utf8' });
      expect(check.error).toBeUndefined();
      expect(check.status, check.stderr).toBe(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
