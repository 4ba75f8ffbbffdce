import { verificationRecord } from '@wolfpack/core';
import { describe, expect, it } from 'vitest';
import { recordLines, summaryVerdict, trimOutput, verdictExitCode, verdictSummaryLines } from './proof-report.js';

describe('summaryVerdict and its exit code', () => {
  it('takes the verdict, reads a failed check as failed, and falls back for older servers', () => {
    expect(summaryVerdict({ passed: true, checkedFiles: 3, problems: [], verdict: 'unproven' })).toBe('unproven');
    expect(summaryVerdict({ passed: false, checkedFiles: 3, problems: [], verdict: 'passed' })).toBe('failed');
    expect(summaryVerdict({ passed: true, checkedFiles: 3, problems: [] })).toBe('passed');
    expect(summaryVerdict({ passed: false, checkedFiles: 3, problems: [] })).toBe('failed');
    expect(summaryVerdict(undefined)).toBe('unknown');
    expect(['passed', 'failed', 'unproven', 'unknown'].map((v) => verdictExitCode(v as never))).toEqual([0, 3, 5, 5]);
  });
});

describe('verdictSummaryLines', () => {
  it('says "not proven" for a project that could not run, with both sentences', () => {
    expect(
      verdictSummaryLines({ passed: true, checkedFiles: 3, problems: [], verdict: 'unproven', proven: '3 files checked (syntax).', notProven: 'not executed: no sandbox on this server.' }),
    ).toEqual(['Proven Code: not proven', '  Proven: 3 files checked (syntax).', '  Not proven: not executed: no sandbox on this server.']);
  });

  it('lists the problems of a failed gate, without terminal escapes from generated code', () => {
    const problems = [{ path: 'app.js', check: 'start', message: 'TypeError \u001B[31mboom\u001B[0m' }];
    expect(verdictSummaryLines({ passed: false, checkedFiles: 2, problems, verdict: 'failed', proven: '2 files checked (syntax).', notProven: 'start failed: 1 problem.' })).toEqual([
      'Proven Code: failed',
      '  Proven: 2 files checked (syntax).',
      '  Not proven: start failed: 1 problem.',
      '  1 problem:',
      '    app.js (start): TypeError boom',
    ]);
  });
});

describe('trimOutput', () => {
  it('keeps 12 lines of at most 160 characters and says how many more there were', () => {
    const output = [...Array.from({ length: 15 }, (_, i) => `line ${i + 1}`), 'x'.repeat(400)].join('\n');
    const lines = trimOutput(`${output}\n\n`);
    expect(lines).toHaveLength(13);
    expect(lines[11]).toBe('line 12');
    expect(lines[12]).toBe('… 4 more lines');
    expect(trimOutput('y'.repeat(400))[0]).toHaveLength(160);
    expect(trimOutput('\u001B[2J\u001B[Hclear\rme')).toEqual(['clearme']);
  });
});

describe('recordLines', () => {
  it('prints each check, its problems with file:line and output, then the verdict and sentences', () => {
    const record = verificationRecord.parse({
      version: 3,
      createdAt: '2026-11-24T02:35:00.000Z',
      verdict: 'failed',
      proven: '3 files checked (syntax, tests), 2 tests passed.',
      notProven: 'tests failed (1 of 3 tests): 1 problem; page-load skipped: no sandbox on this server.',
      executed: true,
      coveredFiles: ['app.js', 'app.test.js', 'index.html'],
      uncoveredFiles: [],
      checks: [
        { check: 'syntax', kind: 'static', status: 'passed', files: ['app.js', 'app.test.js'], problems: [] },
        {
          check: 'tests',
          kind: 'execution',
          runtime: 'node',
          status: 'failed',
          files: ['app.test.js'],
          command: 'npm test',
          tests: { passed: 2, failed: 1 },
          problems: [{ path: 'app.test.js', line: 12, message: 'expected 3 to equal 4', output: 'AssertionError: expected 3 to equal 4\n    at app.test.js:12:5' }],
        },
        { check: 'page-load', kind: 'execution', runtime: 'web', status: 'skipped', files: ['index.html'], reason: 'no sandbox on this server', problems: [] },
      ],
    });
    const lines = recordLines(record);
    expect(lines.slice(0, 6)).toEqual([
      'passed   syntax     read        2 files',
      'failed   tests      ran (node)  1 file  $ npm test  tests: 2 passed, 1 failed',
      '    app.test.js:12: expected 3 to equal 4',
      '      | AssertionError: expected 3 to equal 4',
      '      |     at app.test.js:12:5',
      'skipped  page-load  ran (web)   1 file  skipped: no sandbox on this server',
    ]);
    expect(lines[6]).toBe('');
    expect(lines[7]).toMatch(/^Proven Code: failed \(version 3, checked 2026-11-2\d \d\d:\d\d\)$/);
    expect(lines.slice(8)).toEqual([`  Proven: ${record.proven}`, `  Not proven: ${record.notProven}`]);
  });
});
