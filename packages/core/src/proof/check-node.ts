/**
 * Node/TypeScript execution checks: install (outside the sandbox, scripts off), tests, and a
 * smoke start of the entry point. A later check is skipped, with the reason, when an earlier one
 * leaves nothing to run it on.
 */
import { bestLocation, combinedOutput, errorLine, limitSentence, problemFromRun, trimOutput } from './output.js';
import { checkResult, plural, sandboxFailed, skipped, type CheckContext } from './check-context.js';
import { installDependencies, type InstallOptions } from './node-deps.js';
import type { NodeCommand, NodePlan } from './node-project.js';
import type { ExecCheck, ExecProblem } from './report.js';
import type { SandboxResult } from './sandbox.js';
import { SANDBOX_PROJECT_DIR } from './bwrap-args.js';
import { TYPESCRIPT_NODE_OPTIONS } from './support-files.js';
import { failedTapTests, testCounts } from './test-output.js';
import { environmentGap, startVerdict, verdictToCheck } from './start-verdict.js';
import { proveServer, type ServerProof } from './check-server.js';
import type { PageCheckOptions } from './check-page.js';
import { runStep, type StepWords } from './proof-steps.js';

/** A build that must run before a start (tsc, next build) gets up to this. */
const BUILD_WALL_MS = 12_000;
const BUILD_DONE = '@@wolfpack-build-done@@';

interface NodeRun {
  nodeModules?: string;
  env: Record<string, string>;
}

/** "12 dependencies", "1 dependency". */
function dependencies(n: number): string {
  return `${n} ${n === 1 ? 'dependency' : 'dependencies'}`;
}

function installWords(n: number): StepWords {
  const what = dependencies(n);
  return {
    running: `Installing ${what}`,
    passed: (checks) => `Installed ${what}${checks[0]?.summary?.endsWith('from the cache') ? ' from the cache' : ''}`,
    noun: `Installing ${what}`,
  };
}

const TESTS_WORDS: StepWords = { running: 'Running the tests', passed: (checks) => (checks[0]?.tests ? `${plural(checks[0].tests.passed, 'test')} passed` : 'Tests passed'), noun: 'Tests' };

const SERVER_WORDS: StepWords = { running: "Trying the server's routes and pages", passed: "The server answered its routes and pages", noun: 'Trying the server' };

function startWords(command: NodeCommand): StepWords {
  return command.buildFirst
    ? { running: `Building (${command.buildFirst}) and starting the app`, passed: 'Built and started the app', noun: 'Build and start' }
    : { running: 'Starting the app', passed: 'Started the app', noun: 'Start' };
}

async function installCheck(ctx: CheckContext, plan: NodePlan, options: InstallOptions): Promise<{ check: ExecCheck; nodeModules?: string }> {
  const files = plan.packageJson ? ['package.json'] : [];
  const count = Object.keys(plan.dependencies).length;
  if (count === 0) {
    return { check: skipped('install', 'node', files, plan.packageJson ? 'package.json declares no dependencies' : 'the project has no package.json') };
  }
  return runStep(ctx, installWords(count), () => install(plan, files, options), (r) => [r.check]);
}

async function install(plan: NodePlan, files: string[], options: InstallOptions): Promise<{ check: ExecCheck; nodeModules?: string }> {
  const result = await installDependencies(plan.dependencies, options);
  if (result.status === 'none') return { check: skipped('install', 'node', files, 'package.json declares no dependencies') };
  if (result.status === 'failed') {
    const problem: ExecProblem = { path: 'package.json', message: result.message, command: result.command, ...(result.output ? { output: result.output } : {}) };
    return { check: checkResult('install', 'node', { status: 'failed', files, command: result.command, problems: [problem], durationMs: result.durationMs }) };
  }
  const count = plural(Object.keys(plan.dependencies).length, 'package');
  return {
    check: checkResult('install', 'node', {
      status: 'passed',
      files,
      command: result.command,
      summary: result.fromCache ? `${count} from the cache` : `${count} installed`,
      durationMs: result.durationMs,
    }),
    nodeModules: result.nodeModules,
  };
}

function tapProblems(result: SandboxResult, ctx: CheckContext, command: NodeCommand): ExecProblem[] {
  return failedTapTests(result.stdout).map((failure) => {
    const fromDetail = bestLocation(failure.detail, ctx.paths, 'first');
    const file = failure.location?.file.replace(`${SANDBOX_PROJECT_DIR}/`, '');
    const location = fromDetail ?? (file !== undefined && ctx.paths.has(file) ? { path: file, line: failure.location?.line } : { path: command.files[0] ?? 'package.json' });
    const loadFailure = failure.name === file || ctx.paths.has(failure.name);
    return {
      ...location,
      message: loadFailure ? `${failure.name} could not run: ${failure.error}` : `test "${failure.name}" failed: ${failure.error}`,
      command: command.display,
      output: trimOutput(failure.detail),
    };
  });
}

async function testsCheck(ctx: CheckContext, plan: NodePlan, run: NodeRun): Promise<ExecCheck> {
  const command = plan.tests;
  if ('skip' in command) return skipped('tests', 'node', plan.testFiles, command.skip);
  const wall = ctx.budget.wallFor(ctx.commandMs);
  if (wall === 0) return skipped('tests', 'node', command.files, ctx.budget.spentReason());
  return runStep(ctx, TESTS_WORDS, () => runTests(ctx, command, run, wall), (c) => [c]);
}

async function runTests(ctx: CheckContext, command: NodeCommand, run: NodeRun, wall: number): Promise<ExecCheck> {
  const result = await ctx.sandbox.run(ctx.dir, { argv: command.argv, env: run.env, readOnlyBinds: ctx.binds, nodeModules: run.nodeModules, limits: { wallMs: wall }, extendWhenStarved: true, signal: ctx.signal });
  const setup = sandboxFailed('tests', 'node', command.files, result);
  if (setup) return setup;
  const base = { files: command.files, command: command.display, durationMs: result.durationMs };
  const counts = testCounts(combinedOutput(result));
  if (result.stopped === 'time' && wall < ctx.commandMs) return skipped('tests', 'node', command.files, ctx.budget.spentReason());
  // A refused fork the tests lived through (they exited 0) is theirs to report; one that ended the sandbox is the verdict.
  if (result.stopped !== undefined && (result.stopped !== 'processes' || result.exitCode !== 0)) {
    const message = `the tests did not finish: ${limitSentence(result, wall)}`;
    return checkResult('tests', 'node', { ...base, status: 'failed', problems: [problemFromRun(result, { files: ctx.paths, fallbackPath: command.files[0] ?? 'package.json', order: 'first', message, command: command.display })] });
  }
  if (result.exitCode === 0) {
    if (counts && counts.passed + counts.failed === 0) return skipped('tests', 'node', command.files, `${command.display} ran no tests`);
    const summary = counts ? `${plural(counts.passed, 'test')} passed` : `${command.display} exited 0`;
    return checkResult('tests', 'node', { ...base, status: 'passed', summary, ...(counts ? { tests: counts } : {}) });
  }
  // Skipped only when every failure is something the sandbox lacks, never when one failed on its own.
  const gap = environmentGap(combinedOutput(result));
  const failures = command.tap ? failedTapTests(result.stdout) : [];
  if (gap !== undefined && failures.every((f) => environmentGap(f.detail) !== undefined)) {
    return checkResult('tests', 'node', { ...base, status: 'skipped', reason: `the tests could not run here: ${gap}` });
  }
  let problems = command.tap ? tapProblems(result, ctx, command) : [];
  if (problems.length === 0) {
    const why = errorLine(combinedOutput(result));
    const message =
      counts && counts.failed > 0
        ? `${plural(counts.failed, 'test')} failed, ${counts.passed} passed`
        : `${command.display} exited with status ${result.exitCode}${counts ? ' although no test failed' : ''}: ${why}`;
    problems = [problemFromRun(result, { files: ctx.paths, fallbackPath: command.files[0] ?? 'package.json', order: 'first', message, command: command.display })];
  }
  const summary = counts ? `${counts.failed} of ${counts.failed + counts.passed} tests failed` : undefined;
  return checkResult('tests', 'node', { ...base, status: 'failed', problems, ...(summary ? { summary } : {}), ...(counts ? { tests: counts } : {}) });
}

/** The smoke start's check, and whether the program listened on a port (a server, to be proven by use). */
async function startCheck(ctx: CheckContext, plan: NodePlan, run: NodeRun): Promise<{ check: ExecCheck; listened: boolean }> {
  const check = (c: ExecCheck) => ({ check: c, listened: false });
  const command = plan.start;
  if ('skip' in command) return check(skipped('start', 'node', [], command.skip));
  const wanted = ctx.startMs + (command.buildFirst ? BUILD_WALL_MS : 0);
  const wall = ctx.budget.wallFor(wanted);
  if (wall < Math.min(wanted, 1000)) return check(skipped('start', 'node', command.files, ctx.budget.spentReason()));
  return runStep(ctx, startWords(command), () => runStart(ctx, plan, command, run, wall), (r) => [r.check]);
}

async function runStart(ctx: CheckContext, plan: NodePlan, command: NodeCommand, run: NodeRun, wall: number): Promise<{ check: ExecCheck; listened: boolean }> {
  const check = (c: ExecCheck) => ({ check: c, listened: false });
  const shell = command.argv[2]!;
  const argv = command.buildFirst ? ['sh', '-c', `${command.buildFirst} && echo ${BUILD_DONE} >&2 && ${shell}`] : command.argv;
  const result = await ctx.sandbox.run(ctx.dir, {
    argv,
    env: { ...run.env, PORT: '3000' },
    readOnlyBinds: ctx.binds,
    nodeModules: run.nodeModules,
    limits: { wallMs: wall },
    keepStdinOpen: true,
    stopWhenListening: true,
    extendWhenStarved: true,
    signal: ctx.signal,
    ...(command.buildFirst ? { clockFrom: { marker: BUILD_DONE, wallMs: ctx.startMs } } : {}),
  });
  const setup = sandboxFailed('start', 'node', command.files, result);
  if (setup) return check(setup);
  const base = { files: command.files, command: command.display, durationMs: result.durationMs };
  if (command.buildFirst && !result.stderr.includes(BUILD_DONE)) {
    if (result.stopped === 'time') return check(skipped('start', 'node', command.files, `the build (${command.buildFirst}) did not finish within ${Math.round(wall / 1000)} s, so the start was not tried`));
    const problem = problemFromRun(result, { files: ctx.paths, fallbackPath: 'package.json', order: 'first', command: `npm run build (${command.buildFirst})`, message: `the build failed: ${errorLine(combinedOutput(result))}` });
    return check(checkResult('start', 'node', { ...base, status: 'failed', problems: [problem] }));
  }
  // Still running at a deadline the budget brought forward: it did not get its window, so nothing
  // can be said either way (after a build, the clock restarts with the whole window).
  if (result.stopped === 'time' && !command.buildFirst && wall < ctx.startMs) return check(skipped('start', 'node', command.files, ctx.budget.spentReason()));
  const clean = { ...result, stderr: result.stderr.replace(`${BUILD_DONE}\n`, '') };
  const options = { runtime: 'node' as const, order: 'first' as const, fallbackPath: command.files[0] ?? 'package.json', command: command.display, dependencies: Object.keys(plan.dependencies) };
  return { check: verdictToCheck(startVerdict(clean, ctx, options), 'node', base), listened: result.stopped === 'listening' };
}

/**
 * Install, tests and start of the Node part of a project, and where the dependencies were
 * installed (for the type check's real declarations). An HTTP server (`server`) that listened is
 * then proven by use: its routes asked, its pages loaded through it (check-server.ts).
 */
export async function checkNode(ctx: CheckContext, plan: NodePlan, install: InstallOptions, server?: { proof: ServerProof; page?: PageCheckOptions }): Promise<{ checks: ExecCheck[]; nodeModules?: string }> {
  const installed = await installCheck(ctx, plan, install);
  const checks = [installed.check];
  if (installed.check.status === 'failed') {
    const reason = `${installed.check.problems[0]?.message ?? 'the dependencies could not be installed'}, so nothing could run`;
    const testFiles = 'skip' in plan.tests ? plan.testFiles : plan.tests.files;
    checks.push(skipped('tests', 'node', testFiles, reason), skipped('start', 'node', 'skip' in plan.start ? [] : plan.start.files, reason));
    checks.push(...(server?.proof.pages ?? []).map((p) => skipped('page-load', 'web', [p.file], reason)));
    return { checks };
  }
  const typescript = plan.sourceFiles.some((f) => /\.(c|m)?tsx?$/.test(f));
  const run: NodeRun = { ...(installed.nodeModules ? { nodeModules: installed.nodeModules } : {}), env: typescript ? { NODE_OPTIONS: TYPESCRIPT_NODE_OPTIONS } : {} };
  checks.push(await testsCheck(ctx, plan, run));
  const start = await startCheck(ctx, plan, run);
  if (server) {
    const prove = () => proveServer(ctx, server.proof, start.check, start.listened, { install, ...(server.page ? { page: server.page } : {}) });
    checks.push(...(start.listened ? await runStep(ctx, SERVER_WORDS, prove, (c) => c) : await prove()));
  }
  else checks.push(start.check);
  return { checks, ...(installed.nodeModules ? { nodeModules: installed.nodeModules } : {}) };
}

