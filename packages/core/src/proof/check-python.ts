/**
 * Python execution checks: syntax (compile every file), imports (each resolves to a project
 * module, the standard library or an installed package), tests, and a smoke run of the entry
 * module. Packages from requirements.txt cannot be installed here (no PyPI), so files that need
 * one are reported as skipped with that reason, never as passed.
 */
import { SANDBOX_PROJECT_DIR } from './bwrap-args.js';
import { checkResult, plural, sandboxFailed, skipped, type CheckContext } from './check-context.js';
import { bestLocation, combinedOutput, errorLine, limitSentence, problemFromRun, trimOutput } from './output.js';
import { PY_MARK } from './python-scripts.js';
import type { ExecCheck, ExecProblem } from './report.js';
import { startVerdict, verdictToCheck } from './start-verdict.js';
import { SUPPORT_DIR } from './support-files.js';
import { testCounts } from './test-output.js';
import { PYTHON_RUNTIME_RESERVE_BYTES } from './sandbox-limits.js';

interface Analysis {
  syntax: { path: string; line: number | null; message: string; text: string }[];
  imports: { path: string; line: number; module: string; name?: string; kind: 'nowhere' | 'missing-local' | 'missing-name' }[];
  blocked: Record<string, string[]>;
  entries: string[];
  tests: Record<string, { functions: number; fixtures: string[] }>;
  pytest: boolean;
}

interface TestRun {
  ran: number;
  failed: number;
  failures: { test: string; traceback: string; path?: string }[];
  fixtures: string[];
}

const ANALYZE_WALL_MS = 10_000;
const ENTRY_NAMES = ['main.py', 'app.py', '__main__.py', 'run.py', 'cli.py', 'server.py', 'manage.py'];
const IMPORTS_COMMAND = 'python3: find each import (project module, standard library or installed package)';
const NOT_INSTALLABLE = 'which this server cannot install (no access to PyPI)';

/** Distribution names declared in requirements*.txt, pyproject.toml, Pipfile or setup.py. */
export function declaredPythonPackages(files: Readonly<Record<string, string>>): string[] {
  const names = new Set<string>();
  const add = (spec: string) => {
    const name = /^\s*([A-Za-z0-9][A-Za-z0-9._-]*)/.exec(spec)?.[1];
    if (name && name.toLowerCase() !== 'python') names.add(name);
  };
  for (const [path, content] of Object.entries(files)) {
    const base = path.split('/').pop() ?? path;
    if (/^requirements.*\.txt$/.test(base)) {
      for (const line of content.split('\n')) if (!/^\s*(#|-)/.test(line)) add(line.replace(/#.*/, ''));
    } else if (base === 'pyproject.toml') {
      for (const list of content.matchAll(/dependencies\s*=\s*\[([\s\S]*?)\]/g)) for (const s of list[1]!.matchAll(/["']([^"']+)["']/g)) add(s[1]!);
      const poetry = /\[tool\.poetry\.(?:dev-)?dependencies\]([\s\S]*?)(?:\n\[|$)/.exec(content)?.[1] ?? '';
      for (const line of poetry.split('\n')) add(line.split('=')[0] ?? '');
    } else if (base === 'Pipfile') {
      const section = /\[(?:dev-)?packages\]([\s\S]*?)(?:\n\[|$)/.exec(content)?.[1] ?? '';
      for (const line of section.split('\n')) add(line.split('=')[0]?.replace(/"/g, '') ?? '');
    } else if (base === 'setup.py') {
      const list = /install_requires\s*=\s*\[([\s\S]*?)\]/.exec(content)?.[1] ?? '';
      for (const s of list.matchAll(/["']([^"']+)["']/g)) add(s[1]!);
    }
  }
  return [...names].sort();
}

function readMarked<T>(stdout: string): T | undefined {
  const line = stdout.split('\n').find((l) => l.startsWith(PY_MARK));
  if (line === undefined) return undefined;
  try {
    return JSON.parse(line.slice(PY_MARK.length)) as T;
  } catch {
    return undefined;
  }
}

function importProblem(problem: Analysis['imports'][number]): ExecProblem {
  const message =
    problem.kind === 'missing-name'
      ? `imports ${problem.name} from ${problem.module}, which does not define it`
      : problem.kind === 'missing-local'
        ? `imports ${problem.module}, which is not in the project`
        : `imports ${problem.module}, which is not a module in the project, not in Python's standard library and not a declared dependency`;
  return { path: problem.path, line: problem.line, message, command: IMPORTS_COMMAND };
}

function blockedReason(packages: string[]): string {
  return `needs ${packages.length === 1 ? 'package' : 'packages'} ${packages.join(', ')}, ${NOT_INSTALLABLE}`;
}

async function testsCheck(ctx: CheckContext, analysis: Analysis, clean: boolean): Promise<ExecCheck[]> {
  const all = Object.keys(analysis.tests).sort();
  if (all.length === 0) return [skipped('tests', 'python', [], 'the project has no tests (no test_*.py or *_test.py files)')];
  if (!clean) return [skipped('tests', 'python', all, 'the syntax and import problems above come first; running would only repeat them')];
  const blocked = all.filter((f) => analysis.blocked[f]);
  const runnable = all.filter((f) => !analysis.blocked[f]);
  const checks: ExecCheck[] = [];
  if (blocked.length > 0) {
    const packages = [...new Set(blocked.flatMap((f) => analysis.blocked[f]!))].sort();
    checks.push(skipped('tests', 'python', blocked, blockedReason(packages)));
  }
  if (runnable.length === 0) return checks;
  const wall = ctx.budget.wallFor(ctx.commandMs);
  if (wall === 0) return [...checks, skipped('tests', 'python', runnable, ctx.budget.spentReason())];
  const command = analysis.pytest ? `python3 -m pytest ${runnable.join(' ')}` : `python3 -m unittest (${runnable.join(' ')})`;
  const result = await ctx.sandbox.run(ctx.dir, {
    argv: ['python3', `${SUPPORT_DIR}/run_tests.py`, SANDBOX_PROJECT_DIR, JSON.stringify(runnable)],
    readOnlyBinds: ctx.binds,
    limits: { wallMs: wall, runtimeReserveBytes: PYTHON_RUNTIME_RESERVE_BYTES },
    extendWhenStarved: true,
    signal: ctx.signal,
  });
  const setup = sandboxFailed('tests', 'python', runnable, result);
  if (setup) return [...checks, setup];
  const base = { files: runnable, command, durationMs: result.durationMs };
  const fail = (problems: ExecProblem[], counts?: { passed: number; failed: number }) =>
    checkResult('tests', 'python', { ...base, status: 'failed', problems, ...(counts ? { tests: counts, summary: `${counts.failed} of ${counts.passed + counts.failed} tests failed` } : {}) });
  if (result.stopped !== undefined && (result.stopped !== 'processes' || result.exitCode !== 0)) {
    if (result.stopped === 'time' && wall < ctx.commandMs) return [...checks, skipped('tests', 'python', runnable, ctx.budget.spentReason())];
    return [...checks, fail([problemFromRun(result, { files: ctx.paths, fallbackPath: runnable[0]!, order: 'last', command, message: `the tests did not finish: ${limitSentence(result, wall)}` })])];
  }
  const report = readMarked<TestRun>(result.stdout);
  if (report === undefined) {
    const counts = testCounts(combinedOutput(result));
    if (result.exitCode === 0 && counts) return [...checks, checkResult('tests', 'python', { ...base, status: 'passed', tests: counts, summary: `${plural(counts.passed, 'test')} passed` })];
    return [...checks, fail([problemFromRun(result, { files: ctx.paths, fallbackPath: runnable[0]!, order: 'last', command })], counts)];
  }
  if (report.fixtures.length > 0) {
    checks.push(skipped('tests', 'python', [...new Set(report.fixtures.map((t) => t.split('::')[0]!))], `${plural(report.fixtures.length, 'test')} take pytest fixtures, and pytest is not installed on this server`));
  }
  const counts = { passed: report.ran - Math.min(report.ran, report.failed), failed: report.failed };
  if (report.failed === 0) {
    if (report.ran === 0) return [...checks, skipped('tests', 'python', runnable, 'the test files define no tests this server can run')];
    return [...checks, checkResult('tests', 'python', { ...base, status: 'passed', tests: counts, summary: `${plural(report.ran, 'test')} passed` })];
  }
  const problems = report.failures.map((f): ExecProblem => {
    // Test ids: `tests/test_x.py::test_a` (functions), `test_x.Case.test_a` or `test_a (test_x.Case)` (unittest).
    const testFile = runnable.find((file) => f.test.startsWith(file) || f.test.includes(file.replace(/\.py$/, '').replaceAll('/', '.')) || f.test.includes(`(${file.split('/').pop()!.replace(/\.py$/, '')}.`));
    const location = bestLocation(f.traceback, ctx.paths, 'last') ?? { path: testFile ?? runnable[0]! };
    return { ...location, message: `test ${f.test} failed: ${errorLine(f.traceback)}`, command, output: trimOutput(f.traceback) };
  });
  return [...checks, fail(problems, counts)];
}

function entryModule(files: string[], analysis: Analysis): string | undefined {
  const named = ENTRY_NAMES.find((name) => files.includes(name));
  if (named) return named;
  const guarded = analysis.entries.filter((f) => !Object.hasOwn(analysis.tests, f));
  return guarded.find((f) => !f.includes('/')) ?? guarded.find((f) => f.endsWith('/__main__.py')) ?? guarded[0];
}

async function startCheck(ctx: CheckContext, files: string[], analysis: Analysis, clean: boolean): Promise<ExecCheck> {
  const entry = entryModule(files, analysis);
  if (entry === undefined) return skipped('start', 'python', [], 'nothing to start: no main.py or app.py, and no file with if __name__ == "__main__"');
  if (!clean) return skipped('start', 'python', [entry], 'the syntax and import problems above come first; running would only repeat them');
  const needs = analysis.blocked[entry];
  if (needs) return skipped('start', 'python', [entry], blockedReason(needs));
  const wall = ctx.budget.wallFor(ctx.startMs);
  if (wall < Math.min(ctx.startMs, 1000)) return skipped('start', 'python', [entry], ctx.budget.spentReason());
  // A package's __main__.py runs as `python3 -m package` so its relative imports work.
  const argv = entry.endsWith('/__main__.py') ? ['python3', '-m', entry.slice(0, -'/__main__.py'.length).replaceAll('/', '.')] : ['python3', entry];
  const command = argv.join(' ');
  const result = await ctx.sandbox.run(ctx.dir, { argv, readOnlyBinds: ctx.binds, env: { PORT: '8000' }, limits: { wallMs: wall, runtimeReserveBytes: PYTHON_RUNTIME_RESERVE_BYTES }, keepStdinOpen: true, stopWhenListening: true, extendWhenStarved: true, signal: ctx.signal });
  const setup = sandboxFailed('start', 'python', [entry], result);
  if (setup) return setup;
  // Still running at a deadline the budget brought forward: it did not get its window.
  if (result.stopped === 'time' && wall < ctx.startMs) return skipped('start', 'python', [entry], ctx.budget.spentReason());
  const options = { runtime: 'python' as const, order: 'last' as const, fallbackPath: entry, command, dependencies: declaredPythonPackages(ctx.files) };
  return verdictToCheck(startVerdict(result, ctx, options), 'python', { files: [entry], command, durationMs: result.durationMs });
}

/** Syntax, imports, tests and start for the Python files of a project. */
export async function checkPython(ctx: CheckContext, files: string[]): Promise<ExecCheck[]> {
  const names = ['syntax', 'imports', 'tests', 'start'] as const;
  if (ctx.sandbox.python === null) return names.map((check) => skipped(check, 'python', files, 'Python 3 is not installed on this server'));
  const wall = ctx.budget.wallFor(ANALYZE_WALL_MS);
  if (wall === 0) return names.map((check) => skipped(check, 'python', files, ctx.budget.spentReason()));
  const declared = declaredPythonPackages(ctx.files);
  const result = await ctx.sandbox.run(ctx.dir, {
    argv: ['python3', `${SUPPORT_DIR}/analyze.py`, SANDBOX_PROJECT_DIR, JSON.stringify(files), JSON.stringify(declared)],
    readOnlyBinds: ctx.binds,
    limits: { wallMs: wall, runtimeReserveBytes: PYTHON_RUNTIME_RESERVE_BYTES },
    signal: ctx.signal,
  });
  const setup = sandboxFailed('syntax', 'python', files, result);
  if (setup) return names.map((check) => ({ ...setup, check }));
  const analysis = readMarked<Analysis>(result.stdout);
  if (analysis === undefined) {
    const reason = `the Python analysis could not finish (${result.stopped ?? `status ${result.exitCode}`}: ${errorLine(combinedOutput(result))})`;
    return names.map((check) => skipped(check, 'python', files, reason));
  }
  const compileCommand = `python3 -m py_compile ${files.join(' ')}`;
  const syntaxProblems = analysis.syntax.map((s): ExecProblem => ({
    path: s.path,
    ...(s.line !== null ? { line: s.line } : {}),
    message: s.message,
    command: compileCommand,
    output: `File "${s.path}"${s.line !== null ? `, line ${s.line}` : ''}\n    ${s.text.trim()}\n${s.message}`,
  }));
  const durationMs = result.durationMs;
  const checks: ExecCheck[] = [
    checkResult('syntax', 'python', { status: syntaxProblems.length ? 'failed' : 'passed', files, command: compileCommand, problems: syntaxProblems, durationMs, ...(syntaxProblems.length ? {} : { summary: `${plural(files.length, 'file')} compiled` }) }),
  ];
  const broken = new Set(analysis.syntax.map((s) => s.path));
  const blocked = files.filter((f) => analysis.blocked[f] && !broken.has(f));
  const covered = files.filter((f) => !broken.has(f) && !analysis.blocked[f]);
  const importProblems = analysis.imports.map(importProblem);
  if (covered.length > 0 || importProblems.length > 0) {
    const status = importProblems.length ? 'failed' : 'passed';
    const summary = importProblems.length ? undefined : `every import of ${plural(covered.length, 'file')} resolves`;
    checks.push(checkResult('imports', 'python', { status, files: covered, command: IMPORTS_COMMAND, problems: importProblems, durationMs: 0, ...(summary ? { summary } : {}) }));
  }
  if (blocked.length > 0) {
    const packages = [...new Set(blocked.flatMap((f) => analysis.blocked[f]!))].sort();
    checks.push(skipped('imports', 'python', blocked, blockedReason(packages)));
  }
  const clean = syntaxProblems.length === 0 && importProblems.length === 0;
  checks.push(...(await testsCheck(ctx, analysis, clean)));
  checks.push(await startCheck(ctx, files, analysis, clean));
  return checks;
}
