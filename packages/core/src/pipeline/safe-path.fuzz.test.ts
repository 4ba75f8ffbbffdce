/**
 * sanitizePath against hostile paths, checked the way an attacker would use them: joined to a
 * project folder with path.resolve, on POSIX and on Windows. No accepted path may land outside
 * the folder (or on the folder itself), and nothing absolute, `..`, NUL, control characters,
 * backslashes or drive letters may get through, whatever the spelling.
 */
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_PATH_LENGTH, MAX_SEGMENT_LENGTH, sanitizePath } from './safe-path.js';

const RUNS = Number(process.env.WOLFPACK_FUZZ_RUNS ?? 2000);

/** Pieces that have broken path checks somewhere: traversal, separators, devices, encodings. */
const piece = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('..', '.', '/', '//', '\\', '..\\', '../', './', '.../', 'C:', 'c:', 'C:\\', 'C:/', '\\\\?\\', '\\\\server\\share', '//server/share', '\0', '%2e%2e', '%2f', '..%2f', '\u2024\u2024', '．．', '\uff0f', '\u2215', '\u0085', '\u202e', '\u200b', ':', '::$DATA', '~', '~root', '$HOME', '.git', '.GIT', 'con', 'CON.txt', 'nul', 'aux.js', 'com1', 'COM0', 'lpt9.md', 'COM¹', 'lpt³.txt', 'CONIN$', 'conout$.log', ' ', '.', '\t', '\n', '\r', '\u001b', '\u007f', '*', '?', '"', '<', '>', '|') },
  { weight: 2, arbitrary: fc.stringMatching(/^[a-zA-Z0-9_.-]{1,12}$/) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 6 }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 150 }) },
);
const hostilePath = fc.array(piece, { minLength: 1, maxLength: 12 }).map((parts) => parts.join(''));

/** Microsoft's reserved device names (https://learn.microsoft.com/windows/win32/fileio/naming-a-file). */
const WINDOWS_DEVICES = ['con', 'prn', 'aux', 'nul', 'conin$', 'conout$', ...['com', 'lpt'].flatMap((d) => [...'0123456789¹²³'].map((n) => `${d}${n}`))];

const POSIX_ROOT = '/srv/wolfpack/projects/p1';
const WINDOWS_ROOT = 'C:\\wolfpack\\projects\\p1';

describe('sanitizePath under hostile input', () => {
  it('never accepts a path that resolves outside the project folder, on POSIX or on Windows', () => {
    fc.assert(
      fc.property(hostilePath, (raw) => {
        const result = sanitizePath(raw);
        if (!result.ok) {
          expect(result.reason).toMatch(/ is not a safe file path: .+/);
          return;
        }
        const posix = path.posix.resolve(POSIX_ROOT, result.path);
        expect(posix.startsWith(`${POSIX_ROOT}/`), `${JSON.stringify(raw)} -> ${posix}`).toBe(true);
        const windows = path.win32.resolve(WINDOWS_ROOT, result.path);
        expect(windows.startsWith(`${WINDOWS_ROOT}\\`), `${JSON.stringify(raw)} -> ${windows}`).toBe(true);
        // Resolving normalises nothing away: the stored path is already the canonical one.
        expect(path.posix.relative(POSIX_ROOT, posix)).toBe(result.path);
        expect(path.win32.relative(WINDOWS_ROOT, windows).replaceAll('\\', '/')).toBe(result.path);
      }),
      { numRuns: RUNS },
    );
  }, 60_000);

  it('lets nothing absolute, `..`, NUL, control characters, backslashes or drive letters through', () => {
    fc.assert(
      fc.property(hostilePath, (raw) => {
        const result = sanitizePath(raw);
        if (!result.ok) return;
        const p = result.path;
        expect(p.startsWith('/')).toBe(false);
        expect(path.posix.isAbsolute(p) || path.win32.isAbsolute(p)).toBe(false);
        expect(p).not.toMatch(/[\u0000-\u001f\u007f\\:*?"<>|]/);
        expect(p).not.toMatch(/^[a-zA-Z]:/);
        for (const segment of p.split('/')) {
          expect(segment).not.toBe('');
          expect(segment).not.toBe('.');
          expect(segment).not.toBe('..');
          expect(segment.toLowerCase()).not.toBe('.git');
          expect(segment).not.toMatch(/[. ]$/);
          expect(segment.length).toBeLessThanOrEqual(MAX_SEGMENT_LENGTH);
          expect(WINDOWS_DEVICES).not.toContain(segment.split('.')[0]!.toLowerCase());
        }
        expect(p.length).toBeLessThanOrEqual(MAX_PATH_LENGTH);
      }),
      { numRuns: RUNS },
    );
  }, 60_000);

  it('is idempotent, and rejects whatever contains a rejected path as a segment sequence', () => {
    fc.assert(
      fc.property(hostilePath, hostilePath, (a, b) => {
        const first = sanitizePath(a);
        if (first.ok) expect(sanitizePath(first.path)).toEqual(first);
        // Escaping upward is never repaired by what follows: `../x` stays refused wherever it appears.
        expect(sanitizePath(`${a}/../${b}`).ok).toBe(false);
        expect(sanitizePath(`../${a}`).ok).toBe(false);
        expect(sanitizePath(`/${a}`).ok).toBe(false);
        expect(sanitizePath(`${a}\0${b}`).ok).toBe(false);
        expect(sanitizePath(`${a}\\${b}`).ok).toBe(false);
        expect(sanitizePath(`C:${a}`).ok).toBe(false);
      }),
      { numRuns: RUNS },
    );
  }, 60_000);

  // Millions of characters, each refused by the rule named: two million segments walked, one
  // enormous segment measured, a control-character scan of it all. No clock: each case's timeout
  // is the bound (Vitest fails a synchronous test that overran it, once it returns). A linear
  // check takes at most ~0.5 s here on an idle machine; even the cheapest quadratic one (a
  // memchr-fast rescan of the input per segment) takes minutes, where at a quarter of the size
  // it took under 5 s.
  it.each([
    ['two million segments', 'a/'.repeat(2_000_000) + 'b.ts', `it is longer than ${MAX_PATH_LENGTH} characters`],
    ['a million dots', '.'.repeat(1_000_000), `is longer than ${MAX_SEGMENT_LENGTH} characters`],
    ['a million-character name', `${'x'.repeat(1_000_000)}.ts`, `is longer than ${MAX_SEGMENT_LENGTH} characters`],
    ['a million slashes', '/'.repeat(1_000_000), 'it is absolute'],
  ])('answers quickly even for enormous input: %s', { timeout: 10_000 }, (_name, raw, reason) => {
    const result = sanitizePath(raw);
    expect(result.ok).toBe(false);
    expect(result.ok ? '' : result.reason.slice(-100)).toContain(reason);
  });
});
