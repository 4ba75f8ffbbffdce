/**
 * Verification records for component tests, one per verdict, shaped like the server's (and
 * parsed with core's schema, so a fixture that drifts from the contract fails loudly).
 */
import { verificationRecord, type VerificationRecord } from '@wolfpack/core';

const base = {
  version: 2,
  createdAt: '2026-11-03T14:14:00.000Z',
  coveredFiles: ['index.html', 'app.js', 'styles.css'],
  uncoveredFiles: [],
};

export const passedRecord: VerificationRecord = verificationRecord.parse({
  ...base,
  verdict: 'passed',
  proven: '3 files checked (syntax, html, page-load), the page loads without errors.',
  notProven: '',
  executed: true,
  checks: [
    { check: 'syntax', kind: 'static', status: 'passed', files: ['app.js'], problems: [] },
    { check: 'html', kind: 'static', status: 'passed', files: ['index.html'], problems: [] },
    {
      check: 'page-load',
      kind: 'execution',
      runtime: 'web',
      status: 'passed',
      files: ['index.html', 'app.js', 'styles.css'],
      command: 'chromium index.html',
      summary: 'the page loaded without errors',
      problems: [],
      durationMs: 2870,
    },
  ],
});

/** A failed test run whose output holds markup, as untrusted output can. */
export const failedRecord: VerificationRecord = verificationRecord.parse({
  ...base,
  verdict: 'failed',
  proven: '3 files checked (syntax, tests), 2 tests passed.',
  notProven: 'tests failed (1 of 3 tests): 1 problem.',
  executed: true,
  checks: [
    { check: 'syntax', kind: 'static', status: 'passed', files: ['app.js'], problems: [] },
    {
      check: 'tests',
      kind: 'execution',
      runtime: 'node',
      status: 'failed',
      files: ['app.js', 'app.test.js'],
      command: 'npm test',
      tests: { passed: 2, failed: 1 },
      durationMs: 640,
      problems: [
        {
          path: 'app.test.js',
          line: 12,
          message: 'expected 3 to equal 4',
          command: 'npm test',
          output: 'AssertionError: expected 3 to equal 4\n    at <script>alert("x")</script> (app.test.js:12:5)',
        },
      ],
    },
  ],
});

export const unprovenRecord: VerificationRecord = verificationRecord.parse({
  ...base,
  verdict: 'unproven',
  proven: '3 files checked (syntax, html).',
  notProven: 'not executed: no sandbox on this server (bubblewrap is not installed).',
  executed: false,
  notExecutedReason: 'not executed: no sandbox on this server (bubblewrap is not installed)',
  checks: [
    { check: 'syntax', kind: 'static', status: 'passed', files: ['app.js'], problems: [] },
    {
      check: 'page-load',
      kind: 'execution',
      runtime: 'web',
      status: 'skipped',
      files: ['index.html'],
      reason: 'no sandbox on this server',
      problems: [],
    },
  ],
});
