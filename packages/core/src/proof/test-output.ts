/**
 * Reading test runners' output: counts of passed and failed tests, and for Node's TAP reporter
 * each failing test with its location, error and stack. Runners we do not parse in detail still
 * give counts from their summary lines.
 */

export interface TestCounts {
  passed: number;
  failed: number;
}

export interface FailedTest {
  name: string;
  /** `/project/...` path as the runner printed it, and the line. */
  location?: { file: string; line?: number };
  /** The error in a line or three, e.g. "Expected values to be strictly equal: 180 !== 190". */
  error: string;
  /** The error and stack, or the output of a test file that did not even load. */
  detail: string;
}

const SUMMARIES: { pattern: RegExp; read: (m: RegExpMatchArray) => TestCounts }[] = [
  // node --test, TAP and spec reporters: "# pass 3" / "ℹ pass 3" with "fail" on its own line.
  { pattern: /^(?:#|ℹ) pass (\d+)\s*\n(?:.*\n)?^(?:#|ℹ) fail (\d+)/m, read: (m) => ({ passed: Number(m[1]), failed: Number(m[2]) }) },
  // Jest: "Tests:       1 failed, 2 passed, 3 total"
  { pattern: /^Tests:\s+(?:(\d+) failed, )?(?:\d+ skipped, )?(?:(\d+) passed, )?\d+ total/m, read: (m) => ({ passed: Number(m[2] ?? 0), failed: Number(m[1] ?? 0) }) },
  // Vitest: "Tests  1 failed | 2 passed (3)"
  { pattern: /^\s*Tests\s+(?:(\d+) failed)?(?:\s*\|\s*)?(?:(\d+) passed)?.*\(\d+\)/m, read: (m) => ({ passed: Number(m[2] ?? 0), failed: Number(m[1] ?? 0) }) },
  // Mocha: "  2 passing (5ms)" and "  1 failing"
  { pattern: /^\s*(\d+) passing.*\n(?:[\s\S]*?^\s*(\d+) failing)?/m, read: (m) => ({ passed: Number(m[1]), failed: Number(m[2] ?? 0) }) },
  // pytest: "=== 1 failed, 2 passed in 0.12s ==="
  { pattern: /^=+ (?:(\d+) failed)?(?:, )?(?:(\d+) passed)?.* in [\d.]+s/m, read: (m) => ({ passed: Number(m[2] ?? 0), failed: Number(m[1] ?? 0) }) },
];

/** Counts from the first summary line any known runner printed, or undefined. */
export function testCounts(output: string): TestCounts | undefined {
  for (const { pattern, read } of SUMMARIES) {
    const match = output.match(pattern);
    if (match) return read(match);
  }
  return undefined;
}

// A TAP YAML value: `key: 'quoted'`, `key: plain`, or a `|-` block indented deeper.
function yamlField(block: string[], key: string): string | undefined {
  const index = block.findIndex((l) => l.trimStart().startsWith(`${key}:`));
  if (index < 0) return undefined;
  const line = block[index]!;
  const indent = line.length - line.trimStart().length;
  const value = line.trimStart().slice(key.length + 1).trim();
  if (value !== '|-' && value !== '|' && value !== '>-') return value.replace(/^'(.*)'$/, '$1').replace(/''/g, "'");
  const body: string[] = [];
  for (const next of block.slice(index + 1)) {
    if (next.trim() !== '' && next.length - next.trimStart().length <= indent) break;
    body.push(next.slice(indent + 2));
  }
  return body.join('\n').trim();
}

// A file that did not load: its error is the "SomethingError: …" line of its stderr.
function errorOf(lines: string[]): string[] {
  const error = lines.find((l) => /^\w*(Error|Exception)\b/.test(l.trim()));
  return error ? [error] : lines.slice(-1);
}

/**
 * The failing tests in `node --test --test-reporter=tap` output. Suites that failed only because a
 * test inside failed are left out (the test is reported); a file that failed to load is reported
 * with the `#` comment lines the runner printed before it (the file's own stderr).
 */
export function failedTapTests(output: string): FailedTest[] {
  const lines = output.split('\n');
  const failed: FailedTest[] = [];
  let comments: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const trimmed = line.trimStart();
    if (trimmed.startsWith('# ') && !trimmed.startsWith('# Subtest:') && !/^# (tests|suites|pass|fail|cancelled|skipped|todo|duration_ms) /.test(trimmed)) {
      comments.push(trimmed.slice(2));
      continue;
    }
    const notOk = /^not ok \d+ - (.*)$/.exec(trimmed);
    if (!notOk) {
      if (/^ok \d+ /.test(trimmed)) comments = [];
      continue;
    }
    const block: string[] = [];
    if (lines[i + 1]?.trim() === '---') {
      for (i += 2; i < lines.length && lines[i]!.trim() !== '...'; i++) block.push(lines[i]!);
    }
    if (yamlField(block, 'failureType') === 'subtestsFailed') continue;
    const location = /^(.*?):(\d+):\d+$/.exec(yamlField(block, 'location') ?? '');
    const error = yamlField(block, 'error') ?? '';
    const stack = yamlField(block, 'stack') ?? '';
    const loadFailure = error === 'test failed' && comments.length > 0;
    const detail = loadFailure ? comments.join('\n') : [error, stack && `Stack:\n${stack}`].filter(Boolean).join('\n');
    failed.push({
      name: notOk[1]!,
      ...(location ? { location: { file: location[1]!, line: Number(location[2]) } } : {}),
      detail: detail || error,
      error: (loadFailure ? errorOf(comments) : error.split('\n')).map((l) => l.trim()).filter(Boolean).slice(0, 3).join(' ').slice(0, 300),
    });
    comments = [];
  }
  return failed;
}
