import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyLimits, formatBytes, MAX_FILE_BYTES, MAX_FILES, MAX_PROJECT_BYTES, utf8ByteLength } from './limits.js';

const MiB = 1024 * 1024;

// Raw UTF-16 code units, so lone and paired surrogates both occur, plus real emoji.
const anyUtf16 = fc.oneof(
  fc.array(fc.integer({ min: 0, max: 0xffff }), { maxLength: 40 }).map((units) => String.fromCharCode(...units)),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
);

describe('utf8ByteLength', () => {
  it('matches Buffer.byteLength for any string (property)', () => {
    fc.assert(
      fc.property(anyUtf16, (s) => {
        expect(utf8ByteLength(s)).toBe(Buffer.byteLength(s, 'utf8'));
      }),
    );
  });

  it('counts multi-byte characters', () => {
    expect(utf8ByteLength('aé€😀')).toBe(1 + 2 + 3 + 4);
  });
});

describe('formatBytes', () => {
  it.each([
    [300, '300 bytes'],
    [2048, '2 KiB'],
    [1.4 * MiB, '1.4 MiB'],
    [20 * MiB, '20 MiB'],
  ])('%d -> %s', (n, text) => expect(formatBytes(n)).toBe(text));
});

describe('applyLimits', () => {
  it('has the documented limits', () => {
    expect([MAX_FILE_BYTES, MAX_FILES, MAX_PROJECT_BYTES]).toEqual([MiB, 2000, 20 * MiB]);
  });

  it('keeps files within every limit untouched', () => {
    const files = [
      { path: 'a.ts', content: 'a' },
      { path: 'b.ts', content: 'b' },
    ];
    expect(applyLimits(files)).toEqual({ files, problems: [] });
  });

  it('drops a file over 1 MiB (in UTF-8 bytes, not characters) with a clear message', () => {
    const big = { path: 'src/big.json', content: 'x'.repeat(Math.round(1.4 * MiB)) };
    // 400,000 three-byte characters: 1.14 MiB in UTF-8, though only 400,000 characters long.
    const wide = { path: 'src/wide.txt', content: '€'.repeat(400_000) };
    const small = { path: 'src/ok.ts', content: 'ok' };
    const { files, problems } = applyLimits([big, small, wide]);
    expect(files).toEqual([small]);
    expect(problems).toEqual([
      { kind: 'file-too-large', path: 'src/big.json', message: 'src/big.json is 1.4 MiB; the limit is 1 MiB per file. Split it or generate the data at run time.' },
      { kind: 'file-too-large', path: 'src/wide.txt', message: expect.stringContaining('src/wide.txt is 1.1 MiB') },
    ]);
  });

  it('keeps a file of exactly 1 MiB', () => {
    expect(applyLimits([{ path: 'a.txt', content: 'x'.repeat(MiB) }]).files).toHaveLength(1);
  });

  it('keeps at most 2,000 files, counting existing ones, and names the dropped ones', () => {
    const files = Array.from({ length: 2003 }, (_, i) => ({ path: `f${i}.ts`, content: '' }));
    const all = applyLimits(files);
    expect(all.files).toHaveLength(2000);
    expect(all.problems).toEqual([
      { kind: 'too-many-files', message: 'The project may hold at most 2,000 files; 3 more were dropped: f2000.ts, f2001.ts, f2002.ts.' },
    ]);
    const withExisting = applyLimits(files.slice(0, 10), 0, 1995);
    expect(withExisting.files).toHaveLength(5);
    expect(withExisting.problems[0]?.message).toContain('5 more were dropped: f5.ts, f6.ts, f7.ts, f8.ts, f9.ts.');
  });

  it('stops at 20 MiB per project but still fits later small files', () => {
    const chunk = 'x'.repeat(MiB - 10);
    const files = Array.from({ length: 21 }, (_, i) => ({ path: `data/${i}.txt`, content: chunk }));
    files.push({ path: 'small.ts', content: 'export {};' });
    const { files: kept, problems } = applyLimits(files);
    expect(kept).toHaveLength(21);
    expect(kept.at(-1)?.path).toBe('small.ts');
    expect(problems).toEqual([
      { kind: 'project-too-large', message: 'The project may hold at most 20 MiB; 1 file(s) did not fit and were dropped: data/20.txt.' },
    ]);
  });

  it('counts bytes the project already holds', () => {
    const { files, problems } = applyLimits([{ path: 'a.txt', content: 'x'.repeat(100) }], MAX_PROJECT_BYTES - 50);
    expect(files).toEqual([]);
    expect(problems[0]?.kind).toBe('project-too-large');
  });

  it('takes and returns a whole project as { path: content }', () => {
    const result = applyLimits({ 'a.ts': 'a', 'big.bin': 'x'.repeat(MiB + 1) });
    expect(result.files).toEqual({ 'a.ts': 'a' });
    expect(result.problems.map((p) => p.path)).toEqual(['big.bin']);
  });
});
