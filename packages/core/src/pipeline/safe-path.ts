/**
 * Paths written by an AI model are untrusted input: they end up as file names on disk, in zip
 * archives and in Git trees. Everything that stores or exports a generated file goes through
 * {@link sanitizePath}, so one rule set decides what a "safe relative path" is.
 */

/** Longest accepted path, in characters: what every common file system and zip tool handles. */
export const MAX_PATH_LENGTH = 255;
/** Longest accepted single path segment, in characters. */
export const MAX_SEGMENT_LENGTH = 100;

export type SanitizedPath = { ok: true; path: string } | { ok: false; reason: string };

// Windows refuses these device names as a file's base name, with or without an extension, so a
// zip containing `con.ts` cannot be extracted there. The list is Microsoft's: digits 0-9 and the
// superscripts ¹ ² ³ after COM and LPT, and the console's CONIN$ and CONOUT$.
const WINDOWS_RESERVED = new Set([
  'con',
  'prn',
  'aux',
  'nul',
  'conin$',
  'conout$',
  ...['com', 'lpt'].flatMap((device) => [...'0123456789¹²³'].map((n) => `${device}${n}`)),
]);

// Characters Windows does not allow in a name; `:` also covers drive letters and NTFS streams.
const WINDOWS_FORBIDDEN = /[<>:"|?*]/;

/**
 * Normalises a model-written relative file path (`./a//b.ts` -> `a/b.ts`) or says which rule it
 * breaks. The reason is a sentence meant for logs and for the model's next prompt.
 */
export function sanitizePath(raw: string): SanitizedPath {
  const fail = (reason: string): SanitizedPath => ({
    ok: false,
    reason: `${JSON.stringify(raw)} is not a safe file path: ${reason}`,
  });

  if (raw.length === 0) return fail('it is empty');
  if (raw.includes('\0')) return fail('it contains a NUL character');
  if (/[\u0000-\u001f\u007f]/.test(raw)) return fail('it contains a control character');
  if (raw.includes('\\')) return fail('it contains a backslash; use "/" between folders');
  if (/^[a-zA-Z]:/.test(raw)) return fail('it starts with a drive letter; use a relative path');
  if (raw.startsWith('/')) return fail('it is absolute; use a path relative to the project root');
  if (raw.endsWith('/')) return fail('it ends with "/", so it names a folder, not a file');

  // `.` segments and doubled slashes are harmless spellings of the same path; normalise them
  // before the remaining checks so `./src//a.ts` and `src/a.ts` are one file.
  const segments = raw.split('/').filter((s) => s !== '' && s !== '.');
  if (segments.length === 0) return fail('it has no file name');

  for (const segment of segments) {
    if (segment === '..') return fail('it contains ".." and would leave the project folder');
    if (segment.toLowerCase() === '.git') return fail('it writes inside ".git"');
    if (segment.length > MAX_SEGMENT_LENGTH) {
      return fail(`the name "${segment.slice(0, 20)}…" is longer than ${MAX_SEGMENT_LENGTH} characters`);
    }
    if (WINDOWS_FORBIDDEN.test(segment)) {
      return fail(`"${segment}" contains one of < > : " | ? * which Windows does not allow`);
    }
    if (/[. ]$/.test(segment)) return fail(`"${segment}" ends with a dot or space, which Windows drops`);
    if (/^\s|\s$/.test(segment)) return fail(`"${segment}" starts or ends with whitespace`);
    const base = segment.split('.')[0]?.toLowerCase() ?? '';
    if (WINDOWS_RESERVED.has(base)) return fail(`"${segment}" is a reserved device name on Windows`);
  }

  const path = segments.join('/');
  if (path.length > MAX_PATH_LENGTH) return fail(`it is longer than ${MAX_PATH_LENGTH} characters`);
  return { ok: true, path };
}
