import { randomBytes } from 'node:crypto';
import { inflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { KeptDeflate } from './kept-deflate.js';

const source = (i: number) => Buffer.from(`export function step${i}(input: string): string {\n  return input.trim() + ${JSON.stringify('x'.repeat(i % 50))};\n}\n`.repeat(40 + (i % 7)));

describe('KeptDeflate', () => {
  it('makes every input a complete raw deflate stream of its own, alike inputs in a row, empty ones too', async () => {
    const deflater = new KeptDeflate({ level: 6, memLevel: 9, lanes: 1 });
    for (let i = 0; i < 30; i++) {
      const data = i % 10 === 9 ? Buffer.alloc(0) : source(i % 3);
      const out = Buffer.concat(await deflater.deflate(data));
      // On its own: nothing in it points back into an earlier input.
      expect(inflateRawSync(out).equals(data), `input ${i}`).toBe(true);
      if (data.length > 0) expect(out.length).toBeLessThan(data.length / 5);
    }
  });

  it('serves more inputs at once than it has streams, large and incompressible ones too', async () => {
    const deflater = new KeptDeflate({ level: 6, lanes: 2 });
    const inputs = [...Array.from({ length: 20 }, (_, i) => source(i)), randomBytes(300_000), Buffer.from('y'.repeat(3_000_000))];
    const outs = await Promise.all(inputs.map((data) => deflater.deflate(data)));
    outs.forEach((out, i) => expect(inflateRawSync(Buffer.concat(out)).equals(inputs[i]!), `input ${i}`).toBe(true));
  });
});
