import { describe, expect, it } from 'vitest';
import { verificationRecord } from '../schemas/verification.js';
import type { ExecutionReport } from '../proof/report.js';
import { buildVerificationRecord } from './verification-record.js';

const staticReport = {
  checked: [
    { path: 'index.js', checks: ['syntax' as const, 'imports' as const] },
    { path: 'package.json', checks: ['json' as const, 'package-json' as const] },
    { path: 'notes.md', checks: [] },
  ],
  problems: [],
  passed: true,
};
const ran = (checks: ExecutionReport['checks']): ExecutionReport => ({ executed: true, sandbox: 'bubblewrap', runtimes: ['node'], checks, durationMs: 900 });
const paths = ['index.js', 'package.json', 'notes.md', 'index.test.js'];

describe('buildVerificationRecord', () => {
  it('passed: says what was proven and names the files no check covered', () => {
    const record = buildVerificationRecord({
      version: 3,
      paths,
      staticReport,
      execution: ran([
        { check: 'tests', runtime: 'node', status: 'passed', files: ['index.test.js', 'index.js'], command: 'npm test', problems: [], durationMs: 300, tests: { passed: 8, failed: 0 } },
        { check: 'start', runtime: 'node', status: 'passed', files: ['index.js'], command: 'npm start', problems: [], durationMs: 3000 },
      ]),
    });
    expect(verificationRecord.parse(record)).toEqual(record);
    expect(record.verdict).toBe('passed');
    expect(record.proven).toBe('3 files checked (syntax, imports, json, package-json, tests, start), 8 tests passed, starts cleanly.');
    expect(record.uncoveredFiles).toEqual(['notes.md']);
    expect(record.notProven).toBe('1 file not covered by any check (notes.md).');
  });

  it('failed: a failing test makes the verdict failed, with its problem kept', () => {
    const record = buildVerificationRecord({
      version: 1,
      paths,
      staticReport,
      execution: ran([
        {
          check: 'tests',
          runtime: 'node',
          status: 'failed',
          files: ['index.test.js'],
          problems: [{ path: 'index.test.js', line: 4, message: 'sum adds', command: 'node --test', output: 'expected 3, got 2' }],
          durationMs: 200,
          tests: { passed: 1, failed: 1 },
        },
      ]),
    });
    expect(record.verdict).toBe('failed');
    expect(record.notProven).toMatch(/^tests failed \(1 of 2 tests\): 1 problem/);
    expect(record.checks.at(-1)!.problems[0]).toMatchObject({ line: 4, output: 'expected 3, got 2' });
  });

  it('unproven, never passed, when nothing could run', () => {
    const reason = 'not executed: no sandbox on this server (bwrap not found)';
    const record = buildVerificationRecord({
      version: 1,
      paths,
      staticReport,
      execution: { executed: false, notExecutedReason: reason, runtimes: ['node'], checks: [{ check: 'tests', runtime: 'node', status: 'skipped', files: ['index.test.js'], reason, problems: [], durationMs: 0 }], durationMs: 1 },
    });
    expect(record.verdict).toBe('unproven');
    expect(record.notProven).toContain(reason);
    // A skipped check covers nothing: the test file is not "checked".
    expect(record.uncoveredFiles).toContain('index.test.js');
    expect(buildVerificationRecord({ version: 1, paths, staticReport }).verdict).toBe('unproven');
  });

  it('a project with nothing to run is proven by the checks that read it, and nothing checked is unproven', () => {
    const nothingToRun = { executed: false, notExecutedReason: 'nothing to run', runtimes: [], checks: [], durationMs: 0 };
    const data = buildVerificationRecord({ version: 1, paths: ['data.json'], staticReport: { checked: [{ path: 'data.json', checks: ['json'] }], problems: [], passed: true }, execution: nothingToRun });
    expect(data.verdict).toBe('passed');
    expect(data.proven).toBe('1 file checked (json).');
    const css = buildVerificationRecord({ version: 1, paths: ['styles.css'], staticReport: { checked: [{ path: 'styles.css', checks: [] }], problems: [], passed: true }, execution: nothingToRun });
    expect(css.verdict).toBe('unproven');
    expect(css.proven).toBe('Nothing was checked.');
    expect(css.notProven).toContain('1 file not covered by any check (styles.css)');
  });
});
