import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_PATH_LENGTH, sanitizePath } from './safe-path.js';

function reason(raw: string): string {
  const result = sanitizePath(raw);
  if (result.ok) throw new Error(`expected ${JSON.stringify(raw)} to be rejected, got ${result.path}`);
  return result.reason;
}

describe('sanitizePath', () => {
  it.each([
    ['src/a.ts', 'src/a.ts'],
    ['./src/a.ts', 'src/a.ts'],
    ['src//a.ts', 'src/a.ts'],
    ['./src/./lib//a.ts', 'src/lib/a.ts'],
    ['.env', '.env'],
    ['app/[id]/page.tsx', 'app/[id]/page.tsx'],
    ['app/[...slug]/page.tsx', 'app/[...slug]/page.tsx'],
    ['a..b.ts', 'a..b.ts'],
    ['.github/workflows/ci.yml', '.github/workflows/ci.yml'],
    ['src/routes/+page.svelte', 'src/routes/+page.svelte'],
    ['console.ts', 'console.ts'],
  ])('accepts %s as %s', (raw, path) => {
    expect(sanitizePath(raw)).toEqual({ ok: true, path });
  });

  it.each([
    ['', 'empty'],
    ['/etc/passwd', 'absolute'],
    ['\\\\server\\x', 'backslash'],
    ['src\\a.ts', 'backslash'],
    ['C:/a.ts', 'drive letter'],
    ['c:a.ts', 'drive letter'],
    ['../a.ts', '".."'],
    ['src/../../a.ts', '".."'],
    ['src/..', '".."'],
    ['a\0.ts', 'NUL'],
    ['a\n.ts', 'control character'],
    ['a\u007f.ts', 'control character'],
    ['src/', 'folder'],
    ['.', 'no file name'],
    ['./', 'folder'],
    ['.git/config', '".git"'],
    ['x/.GIT/hooks/pre-commit', '".git"'],
    ['CON', 'reserved'],
    ['src/nul.txt', 'reserved'],
    ['Lpt1.md', 'reserved'],
    ['ab:c.ts', 'Windows'],
    ['what?.ts', 'Windows'],
    ['name.', 'dot or space'],
    [`${'a'.repeat(101)}.ts`, 'longer than 100'],
    [Array.from({ length: 30 }, () => 'abcdefghi').join('/'), `longer than ${MAX_PATH_LENGTH}`],
  ])('rejects %j (%s)', (raw, rule) => {
    expect(reason(raw)).toContain(rule);
  });

  it('names the rejected path in the reason', () => {
    expect(reason('../x.ts')).toBe('"../x.ts" is not a safe file path: it contains ".." and would leave the project folder');
  });

  const forbidden = /(^|\/)\.\.(\/|$)|^\/|\\|^[a-zA-Z]:|[\u0000-\u001f\u007f]/;

  it('never accepts an escaping, absolute, backslashed, drive-lettered or control-character path (property)', () => {
    const piece = fc.oneof(
      fc.string({ maxLength: 8 }),
      fc.constantFrom('..', '.', '', '/', '//', '\\', 'C:', 'z:', '\0', '\t', '\u001b', '\u007f', '.git', 'con', '~'),
    );
    const raw = fc.array(piece, { minLength: 1, maxLength: 8 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(raw, (input) => {
        const result = sanitizePath(input);
        if (!result.ok) return;
        expect(result.path).not.toMatch(forbidden);
        expect(result.path.split('/')).not.toContain('');
        expect(result.path.split('/').map((s) => s.toLowerCase())).not.toContain('.git');
        expect(result.path.length).toBeLessThanOrEqual(MAX_PATH_LENGTH);
        // Sanitising is idempotent: a safe path stays itself.
        expect(sanitizePath(result.path)).toEqual(result);
      }),
      { numRuns: 2000 },
    );
  });

  it('round-trips valid relative paths unchanged, and with ./ and doubled slashes (property)', () => {
    const segment = fc
      .stringMatching(/^[A-Za-z0-9_@+\-[\]()][A-Za-z0-9_.@+\-[\]()]{0,20}$/)
      .filter((s) => !/[. ]$/.test(s) && !/^(con|prn|aux|nul|com\d|lpt\d)(\.|$)/i.test(s) && s.toLowerCase() !== '.git');
    const path = fc.array(segment, { minLength: 1, maxLength: 6 }).map((segments) => segments.join('/'));
    fc.assert(
      fc.property(path, (p) => {
        expect(sanitizePath(p)).toEqual({ ok: true, path: p });
        expect(sanitizePath(`./${p.replaceAll('/', '//')}`)).toEqual({ ok: true, path: p });
      }),
      { numRuns: 1000 },
    );
  });
});
