import { describe, expect, it } from 'vitest';
import { verificationRecord } from '../schemas/verification.js';
import type { ExecCheck, ExecutionReport } from '../proof/report.js';
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

describe('buildVerificationRecord, check by check', () => {
  const node = (checks: ExecutionReport['checks'], runtimes: ExecutionReport['runtimes'] = ['node']): ExecutionReport => ({ executed: true, sandbox: 'bubblewrap', runtimes, checks, durationMs: 900 });
  const noStatic = (paths: string[]) => ({ checked: paths.map((path) => ({ path, checks: [] })), problems: [], passed: true });

  it('keeps each static check with the files it read, its problems and their lines; a rule that lists no files is named by its problems', () => {
    const record = buildVerificationRecord({
      version: 2,
      paths: ['index.js', 'lib.js', 'README.md'],
      staticReport: {
        checked: [
          { path: 'index.js', checks: ['syntax', 'imports'] },
          { path: 'lib.js', checks: ['syntax'] },
          { path: 'README.md', checks: [] },
        ],
        problems: [
          { path: 'lib.js', check: 'syntax', message: "Unexpected token '}'", line: 7, detail: 'node --check lib.js' },
          { path: 'lib.js', check: 'duplicates', message: "'sum' is also defined in index.js" },
        ],
        passed: false,
      },
      execution: node([]),
      now: new Date('2026-11-20T10:00:00Z'),
    });
    expect(record.checks).toEqual([
      { check: 'syntax', kind: 'static', status: 'failed', files: ['index.js', 'lib.js'], problems: [{ path: 'lib.js', message: "Unexpected token '}'", line: 7 }] },
      { check: 'imports', kind: 'static', status: 'passed', files: ['index.js'], problems: [] },
      { check: 'duplicates', kind: 'static', status: 'failed', files: ['lib.js'], problems: [{ path: 'lib.js', message: "'sum' is also defined in index.js" }] },
    ]);
    expect(record).toMatchObject({ version: 2, createdAt: '2026-11-20T10:00:00.000Z', verdict: 'failed', executed: true, coveredFiles: ['index.js', 'lib.js'], uncoveredFiles: ['README.md'] });
    expect(record).not.toHaveProperty('notExecutedReason');
    expect(record.proven).toBe('2 files checked (syntax, imports, duplicates).');
    expect(record.notProven).toBe('syntax failed: 1 problem; duplicates failed: 1 problem; 1 file not covered by any check (README.md).');
  });

  it('keeps what each execution check says: command, summary, reason, test counts, problems with their lines', () => {
    const problem = { path: 'src/server.js', line: 12, message: 'it exited with status 1 within 3 s: TypeError: boom', command: 'npm start', output: 'TypeError: boom' };
    const record = buildVerificationRecord({
      version: 1,
      paths: ['src/server.js', 'test/server.test.js', 'main.py'],
      staticReport: noStatic(['src/server.js', 'test/server.test.js', 'main.py']),
      execution: node(
        [
          { check: 'tests', runtime: 'node', status: 'passed', files: ['test/server.test.js', 'src/server.js'], command: 'npm test', summary: '3 tests passed', problems: [], durationMs: 412.6, tests: { passed: 3, failed: 0 } },
          { check: 'start', runtime: 'node', status: 'failed', files: ['src/server.js'], command: 'npm start', problems: [problem, { path: 'src/server.js', message: 'no port' }], durationMs: 3000 },
          { check: 'start', runtime: 'python', status: 'skipped', files: ['main.py'], reason: 'Python 3 is not installed on this server', problems: [], durationMs: 0 },
        ],
        ['node', 'python'],
      ),
    });
    expect(record.checks).toEqual([
      { check: 'tests', kind: 'execution', runtime: 'node', status: 'passed', files: ['test/server.test.js', 'src/server.js'], command: 'npm test', summary: '3 tests passed', problems: [], durationMs: 413, tests: { passed: 3, failed: 0 } },
      { check: 'start', kind: 'execution', runtime: 'node', status: 'failed', files: ['src/server.js'], command: 'npm start', problems: [problem, { path: 'src/server.js', message: 'no port' }], durationMs: 3000 },
      { check: 'start', kind: 'execution', runtime: 'python', status: 'skipped', files: ['main.py'], reason: 'Python 3 is not installed on this server', problems: [], durationMs: 0 },
    ]);
    expect(verificationRecord.parse(record)).toEqual(record);
    expect(record.verdict).toBe('failed');
    // A start that failed is not "starts cleanly", even beside one that was skipped; a check that
    // was skipped is not named among those that checked anything.
    expect(record.proven).toBe('2 files checked (tests, start), 3 tests passed.');
    expect(record.notProven).toBe('start failed: 2 problems; start skipped: Python 3 is not installed on this server; 1 file not covered by any check (main.py).');
    expect(record.uncoveredFiles).toEqual(['main.py']);
  });

  it('says it starts cleanly only when no start failed, and the page loads only when no page load failed', () => {
    const paths = ['server.js', 'main.py', 'index.html'];
    const check = (name: 'start' | 'page-load', runtime: 'node' | 'python' | 'web', status: 'passed' | 'failed', file: string) => ({
      check: name,
      runtime,
      status,
      files: [file],
      problems: status === 'failed' ? [{ path: file, message: `${name} failed` }] : [],
      durationMs: 100,
    });
    const proven = (checks: ExecutionReport['checks']) => buildVerificationRecord({ version: 1, paths, staticReport: noStatic(paths), execution: node(checks, ['node', 'python', 'web']) }).proven;
    expect(proven([check('start', 'node', 'passed', 'server.js'), check('page-load', 'web', 'passed', 'index.html')])).toBe('2 files checked (start, page-load), starts cleanly, the page loads without errors.');
    expect(proven([check('start', 'node', 'passed', 'server.js'), check('start', 'python', 'failed', 'main.py')])).toBe('2 files checked (start).');
    expect(proven([check('start', 'python', 'failed', 'main.py'), check('start', 'node', 'passed', 'server.js')])).toBe('2 files checked (start).');
    expect(proven([check('start', 'node', 'failed', 'server.js')])).toBe('1 file checked (start).');
    expect(proven([check('page-load', 'web', 'passed', 'index.html'), check('page-load', 'web', 'failed', 'server.js')])).toBe('2 files checked (page-load).');
    expect(proven([check('page-load', 'web', 'failed', 'index.html')])).toBe('1 file checked (page-load).');
    // Another check's failure takes nothing from a start or a page that worked.
    expect(proven([check('start', 'node', 'passed', 'server.js'), check('page-load', 'web', 'passed', 'index.html'), { ...check('start', 'node', 'passed', 'main.py'), check: 'tests', status: 'failed' }])).toBe(
      '3 files checked (start, page-load, tests), starts cleanly, the page loads without errors.',
    );
  });

  it('says a bundled app was built and rendered, in their own words, and not what failed', () => {
    const paths = ['index.html', 'src/App.tsx'];
    const check = (name: 'build' | 'render', status: 'passed' | 'failed', summary?: string) => ({
      check: name,
      runtime: 'web' as const,
      status,
      files: paths,
      ...(summary ? { summary } : {}),
      problems: status === 'failed' ? [{ path: 'src/App.tsx', line: 4, message: 'uncaught TypeError' }] : [],
      durationMs: 100,
    });
    const proven = (checks: ExecutionReport['checks']) => buildVerificationRecord({ version: 1, paths, staticReport: noStatic(paths), execution: node(checks, ['web']) });
    const rendered = 'page rendered: 1 route, no errors (clicks and other interactions are not exercised)';
    expect(proven([check('build', 'passed', 'built with vite: 4 files, 220 KB'), check('render', 'passed', rendered)]).proven).toBe(
      `2 files checked (build, render), built with vite, ${rendered}.`,
    );
    const crashed = proven([check('build', 'passed', 'built with vite: 4 files, 220 KB'), check('render', 'failed')]);
    expect(crashed.proven).toBe('2 files checked (build, render), built with vite.');
    expect(crashed.notProven).toBe('render failed: 1 problem.');
    expect(crashed.verdict).toBe('failed');
    expect(proven([check('build', 'failed')]).proven).toBe('2 files checked (build).');
  });

  it('says what was assumed of a start that passed only because it kept running, and fails a hang with its problem', () => {
    const paths = ['bot.js', 'main.py', 'index.html'];
    const start = (runtime: 'node' | 'python', file: string, summary: string) => ({ check: 'start' as const, runtime, status: 'passed' as const, files: [file], summary, problems: [], durationMs: 3000 });
    const record = (checks: ExecutionReport['checks']) => buildVerificationRecord({ version: 1, paths, staticReport: noStatic(paths), execution: node(checks, ['node', 'python']) });
    const bot = start('node', 'bot.js', 'still running after 3 s; assumed to be a long-running bot (discord.js)');
    const prompt = start('python', 'main.py', 'still running after 3 s and idle (0 s of CPU time); assumed to be waiting for input on stdin (main.py: input)');
    expect(record([bot]).proven).toBe('1 file checked (start), starts (still running after 3 s; assumed to be a long-running bot (discord.js)).');
    expect(record([bot]).verdict).toBe('passed');
    // One start that needed no assumption does not make the other clean.
    expect(record([start('python', 'main.py', 'ran and exited 0'), bot]).proven).toBe('2 files checked (start), starts (still running after 3 s; assumed to be a long-running bot (discord.js)).');
    expect(record([bot, prompt]).proven).toBe(
      '2 files checked (start), starts (still running after 3 s; assumed to be a long-running bot (discord.js)) and (still running after 3 s and idle (0 s of CPU time); assumed to be waiting for input on stdin (main.py: input)).',
    );
    // Only a start's summary speaks for the start.
    expect(record([start('python', 'main.py', 'ran and exited 0'), { ...bot, check: 'page-load', runtime: 'web', files: ['index.html'] }]).proven).toBe('2 files checked (start, page-load), starts cleanly, the page loads without errors.');
    // A hang is a failed start with its problem: never "starts", and the verdict fails.
    const hang = { path: 'main.py', message: 'it was still running after 3 s and not listening, busy (2.9 s of CPU time: a loop that never ends?); nothing in the project says it should run until stopped', command: 'python3 main.py', output: '' };
    const hung = record([{ check: 'start', runtime: 'python', status: 'failed', files: ['main.py'], command: 'python3 main.py', problems: [hang], durationMs: 3000 }]);
    expect(hung).toMatchObject({ verdict: 'failed', proven: '1 file checked (start).', notProven: 'start failed: 1 problem; 2 files not covered by any check (bot.js, index.html).' });
    expect(hung.checks[0]!.problems).toEqual([hang]);
  });

  it('counts only the tests of test runs that passed, and only when the runner gave counts', () => {
    const paths = ['a.test.js', 'b.test.js', 'c.test.js'];
    const record = buildVerificationRecord({
      version: 1,
      paths,
      staticReport: noStatic(paths),
      execution: node([
        { check: 'tests', runtime: 'node', status: 'passed', files: ['a.test.js'], problems: [], durationMs: 1, tests: { passed: 4, failed: 0 } },
        { check: 'tests', runtime: 'node', status: 'failed', files: ['b.test.js'], problems: [{ path: 'b.test.js', message: 'x' }], durationMs: 1, tests: { passed: 5, failed: 2 } },
        // A runner whose output gave no counts, and one that crashed after every test passed.
        { check: 'tests', runtime: 'node', status: 'passed', files: ['c.test.js'], problems: [], durationMs: 1 },
        { check: 'tests', runtime: 'python', status: 'failed', files: ['c.test.js'], problems: [{ path: 'c.test.js', message: 'y' }], durationMs: 1, tests: { passed: 6, failed: 0 } },
        { check: 'install', runtime: 'node', status: 'passed', files: ['a.test.js'], problems: [], durationMs: 1, tests: { passed: 100, failed: 0 } },
      ]),
    });
    expect(record.proven).toBe('3 files checked (tests, install), 4 tests passed.');
    expect(record.notProven).toBe('tests failed (2 of 7 tests): 1 problem; tests failed: 1 problem.');
  });

  it('nothing checked is nothing proven, even when the sandbox ran: every check skipped is unproven', () => {
    const record = buildVerificationRecord({
      version: 1,
      paths: ['main.py'],
      staticReport: noStatic(['main.py']),
      execution: node([{ check: 'tests', runtime: 'python', status: 'skipped', files: ['main.py'], problems: [], durationMs: 0 }], ['python']),
    });
    expect(record.verdict).toBe('unproven');
    expect(record.proven).toBe('Nothing was checked.');
    // A skipped check that gives no reason says so.
    expect(record.notProven).toBe('tests skipped: no reason given; 1 file not covered by any check (main.py).');
  });

  it('says why nothing ran, by default that running code is off on this server', () => {
    const off = buildVerificationRecord({ version: 1, paths: ['data.json'], staticReport: { checked: [{ path: 'data.json', checks: ['json'] }], problems: [], passed: true } });
    expect(off).toMatchObject({ verdict: 'unproven', executed: false, notExecutedReason: 'not executed: running generated code is turned off on this server' });
    expect(off.notProven).toBe('not executed: running generated code is turned off on this server.');
    const reason = 'not executed: no sandbox on this server (bwrap not found)';
    const noSandbox = buildVerificationRecord({ version: 1, paths: ['data.json'], staticReport: noStatic(['data.json']), execution: { executed: false, notExecutedReason: reason, runtimes: ['node'], checks: [], durationMs: 0 } });
    expect(noSandbox.notExecutedReason).toBe(reason);
    expect(noSandbox.notProven).toBe(`${reason}; 1 file not covered by any check (data.json).`);
  });

  it('has nothing to say against a project every check covered and passed', () => {
    const record = buildVerificationRecord({ version: 1, paths: ['index.js'], staticReport: { checked: [{ path: 'index.js', checks: ['syntax'] }], problems: [], passed: true }, execution: node([{ check: 'start', runtime: 'node', status: 'passed', files: ['index.js'], problems: [], durationMs: 1 }]) });
    expect(record.verdict).toBe('passed');
    expect(record.notProven).toBe('');
    expect(record.uncoveredFiles).toEqual([]);
  });

  it('names at most five uncovered files', () => {
    const uncovered = (n: number) => {
      const paths = Array.from({ length: n }, (_, i) => `docs/${i + 1}.md`);
      return buildVerificationRecord({ version: 1, paths, staticReport: noStatic(paths), execution: node([]) }).notProven;
    };
    expect(uncovered(5)).toBe('5 files not covered by any check (docs/1.md, docs/2.md, docs/3.md, docs/4.md, docs/5.md).');
    expect(uncovered(7)).toBe('7 files not covered by any check (docs/1.md, docs/2.md, docs/3.md, docs/4.md, docs/5.md, …).');
  });
});

describe('buildVerificationRecord, the check that proves the project kind', () => {
  const budget = "the project's 20 s time budget for running code was used up by the checks before it";
  const report = (checks: ExecutionReport['checks'], runtimes: ExecutionReport['runtimes']): ExecutionReport => ({ executed: true, sandbox: 'bubblewrap', runtimes, checks, durationMs: 900 });
  const record = (paths: string[], checks: ExecutionReport['checks'], runtimes: ExecutionReport['runtimes']) =>
    buildVerificationRecord({ version: 1, paths, staticReport: { checked: paths.map((path) => ({ path, checks: ['syntax' as const] })), problems: [], passed: true }, execution: report(checks, runtimes) });
  const passed = (check: ExecCheck['check'], runtime: ExecCheck['runtime'], files: string[], proves = false): ExecCheck => ({ check, runtime, status: 'passed', files, problems: [], durationMs: 100, ...(proves ? { proves } : {}) });
  const skip = (check: ExecCheck['check'], runtime: ExecCheck['runtime'], files: string[], reason: string, proves = true): ExecCheck => ({ check, runtime, status: 'skipped', files, reason, problems: [], durationMs: 0, ...(proves ? { proves } : {}) });

  it('a bundled app whose build and render were skipped is unproven, and says first that it was not built and rendered, and why', () => {
    const paths = ['package.json', 'index.html', 'src/App.tsx'];
    const app = record(
      paths,
      [
        passed('install', 'node', ['package.json']),
        skip('tests', 'node', [], 'the project has no tests (no test script and no test files)', false),
        skip('start', 'node', [], 'the app is built with vite and its page rendered instead of starting its dev server', false),
        skip('build', 'web', ['index.html'], budget),
        skip('render', 'web', ['index.html'], budget),
      ],
      ['node', 'web'],
    );
    expect(app.verdict).toBe('unproven');
    expect(app.notProven).toBe(
      `the app was not built and rendered (${budget}); tests skipped: the project has no tests (no test script and no test files); start skipped: the app is built with vite and its page rendered instead of starting its dev server.`,
    );
    // The stored record says which checks prove the kind.
    expect(verificationRecord.parse(app)).toEqual(app);
    expect(app.checks.filter((c) => c.proves).map((c) => c.check)).toEqual(['build', 'render']);
    // Built, but not rendered: the render's own reason.
    const unrendered = record(paths, [passed('install', 'node', ['package.json']), passed('build', 'web', paths, true), skip('render', 'web', ['index.html'], 'Chromium is not installed on this server (Debian: apt-get install chromium)')], ['node', 'web']);
    expect(unrendered.verdict).toBe('unproven');
    expect(unrendered.notProven).toBe('the built app was not rendered in a browser (Chromium is not installed on this server (Debian: apt-get install chromium)).');
    // Built and rendered: passed.
    expect(record(paths, [passed('build', 'web', paths, true), passed('render', 'web', paths, true)], ['web']).verdict).toBe('passed');
  });

  it('a server whose start was skipped is unproven, with why; a Python entry is named', () => {
    const server = record(['server.js', 'server.test.js'], [passed('tests', 'node', ['server.test.js', 'server.js']), skip('start', 'node', ['server.js'], budget)], ['node']);
    expect(server.verdict).toBe('unproven');
    expect(server.notProven).toBe(`the Node project was not started (${budget}).`);
    const flask = record(['app.py'], [passed('syntax', 'python', ['app.py']), skip('start', 'python', ['app.py'], 'app.py needs flask, which this server cannot install (no access to PyPI)')], ['python']);
    expect(flask.verdict).toBe('unproven');
    expect(flask.notProven).toBe('app.py was not started (app.py needs flask, which this server cannot install (no access to PyPI)).');
  });

  it('pages that were not loaded are unproven, named together when they share the reason', () => {
    const pages = record(
      ['index.html', 'about.html', 'shop.html'],
      [passed('page-load', 'web', ['index.html'], true), skip('page-load', 'web', ['about.html'], budget), skip('page-load', 'web', ['shop.html'], budget)],
      ['web'],
    );
    expect(pages.verdict).toBe('unproven');
    expect(pages.notProven).toBe(`about.html and shop.html were not loaded in a browser (${budget}).`);
  });

  it('a library whose start was skipped because it has nothing to start can still pass', () => {
    const library = record(
      ['lib.js', 'lib.test.js'],
      [passed('tests', 'node', ['lib.test.js', 'lib.js']), skip('start', 'node', [], 'nothing to start: no start or dev script, no main file and no index or server file', false)],
      ['node'],
    );
    expect(library.verdict).toBe('passed');
    expect(library.notProven).toBe('start skipped: nothing to start: no start or dev script, no main file and no index or server file.');
  });

  it('a failure comes first and keeps the verdict failed; without a sandbox, the reason for that speaks for every check', () => {
    const failing = record(['server.js'], [{ ...passed('tests', 'node', ['server.js']), status: 'failed', problems: [{ path: 'server.js', message: 'x' }] }, skip('start', 'node', ['server.js'], budget)], ['node']);
    expect(failing.verdict).toBe('failed');
    expect(failing.notProven).toBe(`tests failed: 1 problem; the Node project was not started (${budget}).`);
    const reason = 'not executed: no sandbox on this server (bwrap not found)';
    const none = buildVerificationRecord({
      version: 1,
      paths: ['index.html'],
      staticReport: { checked: [{ path: 'index.html', checks: ['html'] }], problems: [], passed: true },
      execution: { executed: false, notExecutedReason: reason, runtimes: ['web'], checks: [skip('page-load', 'web', ['index.html'], reason)], durationMs: 0 },
    });
    expect(none).toMatchObject({ verdict: 'unproven', notProven: `${reason}; page-load skipped: ${reason}.` });
  });

  it('reads a stored record from before the checks said what proves the kind', () => {
    const old = { check: 'start', kind: 'execution', runtime: 'node', status: 'passed', files: ['index.js'], problems: [] };
    expect(verificationRecord.parse({ version: 1, createdAt: '2026-11-20T10:00:00.000Z', verdict: 'passed', proven: '', notProven: '', executed: true, coveredFiles: [], uncoveredFiles: [], checks: [old] }).checks[0]).toEqual(old);
  });
});
