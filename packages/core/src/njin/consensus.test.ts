import { applyPatch, parsePatch } from 'diff';
import { beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../errors.js';
import { EngineError, type EngineRequest } from '../engines/engine.js';
import { scriptedEngine, systemOf, userOf, type ScriptedAnswer } from '../pipeline/testing-engines.js';
import { verifyProject, verifyProjects } from '../pipeline/verify.js';
import { runIteration, type IterationOptions } from './consensus.js';
import { VOTE_SYSTEM_PROMPT } from './vote.js';

const FILES = {
  'src/math.ts': 'export function add(a: number, b: number): number {\n  return a + b;\n}\n',
  'src/main.ts': "import { add } from './math.js';\n\nconsole.log(add(1, 2));\n",
};

const RIGHT = [
  'Here is the change:',
  '```ts src/math.ts',
  'export function add(a: number, b: number): number {',
  '  return a + b;',
  '}',
  '',
  'export function subtract(a: number, b: number): number {',
  '  return a - b;',
  '}',
  '```',
].join('\n');

const BROKEN_SYNTAX = [
  '```ts src/math.ts',
  'export function add(a: number, b: number): number {',
  '  return a + b;',
  '}',
  '',
  'export function subtract(a: number, b: number): number {',
  '  return a - b;',
  '```',
].join('\n');

const BROKEN_IMPORT = [
  '```ts src/math.ts',
  "import { minus } from './helpers.js';",
  '',
  'export function add(a: number, b: number): number {',
  '  return a + b;',
  '}',
  '',
  'export const subtract = minus;',
  '```',
].join('\n');

// The same change as RIGHT, as a unified diff with a hunk header whose counts are wrong (engines
// miscount them; the parser recounts).
const RIGHT_DIFF = [
  'Apply this:',
  '```diff',
  '--- a/src/math.ts',
  '+++ b/src/math.ts',
  '@@ -1,3 +1,99 @@',
  ' export function add(a: number, b: number): number {',
  '   return a + b;',
  ' }',
  '+',
  '+export function subtract(a: number, b: number): number {',
  '+  return a - b;',
  '+}',
  '```',
].join('\n');

const isVote = (request: EngineRequest) => systemOf(request.messages) === VOTE_SYSTEM_PROMPT;

/** A proposer that answers `proposal` and, asked to vote, picks the proposal containing `marker`. */
function engine(key: string, proposal: ScriptedAnswer, marker?: string) {
  return scriptedEngine(key, (request) => {
    if (!isVote(request)) return proposal;
    if (marker === undefined) return 'I cannot decide.';
    const text = userOf(request.messages);
    const sections = text.split(/^Proposal ([A-Z]):$/m);
    for (let i = 1; i < sections.length; i += 2) if ((sections[i + 1] ?? '').includes(marker)) return `Looks right.\nVOTE: ${sections[i]}`;
    return 'VOTE: none';
  });
}

function options(engines: IterationOptions['engines'], extra: Partial<IterationOptions> = {}): IterationOptions {
  return { files: FILES, instruction: 'Add a subtract function to src/math.ts.', mode: 'consensus', engines, verify: verifyProjects, ...extra };
}

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe('runIteration', () => {
  // The first type check loads TypeScript's lib files (seconds); every later one is fast.
  beforeAll(() => void verifyProject(FILES), 60_000);

  it('lets only the candidate that passes the checks win, whatever the votes say', async () => {
    // Every engine would vote for the syntax-broken proposal, were it on the ballot.
    const engines = [engine('x', BROKEN_SYNTAX, 'a - b;\n```'), engine('y', BROKEN_IMPORT, 'helpers'), engine('z', RIGHT, 'helpers')];
    const outcome = await runIteration(options(engines));

    expect(outcome.mode).toBe('consensus');
    expect(outcome.winner).toBe('Engine 3');
    expect(outcome.candidates.map((c) => [c.engine, c.passed])).toEqual([
      ['Engine 1', false],
      ['Engine 2', false],
      ['Engine 3', true],
    ]);
    expect(outcome.candidates[0]!.failedChecks.join('\n')).toMatch(/^syntax: src\/math\.ts/m);
    expect(outcome.candidates[1]!.failedChecks.join('\n')).toMatch(/^imports: src\/math\.ts: .*helpers/m);
    expect(outcome.candidates[2]!.failedChecks).toEqual([]);
    // A lone passing candidate needs no vote.
    expect(engines.map((e) => e.calls.length)).toEqual([1, 1, 1]);
    expect(outcome.consensusScore).toBe(1);
    expect(outcome.modelVotes).toBe('Engine 3');
    expect(Object.keys(outcome.files)).toEqual(['src/math.ts']);
    expect(outcome.files['src/math.ts']).toContain('export function subtract');
    expect(outcome.checks.every((c) => c.ok)).toBe(true);
    expect(outcome.checks.map((c) => c.check)).toEqual(expect.arrayContaining(['format', 'paths', 'applies', 'syntax', 'imports', 'types']));
    // The patch turns the files sent into the winner's files.
    const [filePatch] = parsePatch(outcome.patch);
    expect(filePatch?.oldFileName).toBe('a/src/math.ts');
    expect(applyPatch(FILES['src/math.ts'], filePatch!)).toBe(outcome.files['src/math.ts']);
    expect(outcome.usage.map((u) => u.engine)).toEqual(['Engine 1', 'Engine 2', 'Engine 3']);
    expect(outcome.usage.every((u) => u.totalTokens > 0 && u.calls === 1)).toBe(true);
  });

  it('answers 422 listing every candidate and why, when none passes', async () => {
    const engines = [engine('x', BROKEN_SYNTAX), engine('y', BROKEN_IMPORT), engine('z', 'I would rather not.')];
    const error = await rejection(runIteration(options(engines)));
    expect(error.code).toBe('UNPROCESSABLE');
    expect(error.status).toBe(422);
    expect(error.message).toMatch(/^No proposed change passed the checks: Engine 1 failed syntax; Engine 2 failed imports; Engine 3 failed format\./);
    const candidates = error.details?.candidates ?? [];
    expect(candidates.map((c) => c.engine)).toEqual(['Engine 1', 'Engine 2', 'Engine 3']);
    expect(candidates.every((c) => !c.passed && c.failedChecks.length > 0)).toBe(true);
    expect(candidates[2]!.failedChecks[0]).toMatch(/^format: The answer held neither/);
  });

  it('reports each call through onCall, also when the iteration ends in a 422', async () => {
    const calls: string[] = [];
    await rejection(runIteration(options([engine('x', BROKEN_SYNTAX), engine('y', BROKEN_IMPORT)], { onCall: (c) => calls.push(`${c.engine}:${c.purpose}:${c.engineKey}`) })));
    expect(calls.sort()).toEqual(['Engine 1:proposal:x', 'Engine 2:proposal:y']);
  });

  it('accepts unified diffs and fenced whole files alike', async () => {
    const viaDiff = await runIteration(options([engine('d', RIGHT_DIFF)], { mode: 'single' }));
    const viaBlocks = await runIteration(options([engine('b', RIGHT)], { mode: 'single' }));
    expect(viaDiff.files).toEqual(viaBlocks.files);
    expect(viaDiff.patch).toBe(viaBlocks.patch);
    expect(viaDiff.mode).toBe('single');
  });

  it('fails a candidate whose diff does not apply', async () => {
    const stale = RIGHT_DIFF.replace('   return a + b;', '   return a + b + 0;');
    const error = await rejection(runIteration(options([engine('d', stale)], { mode: 'single' })));
    expect(error.details?.candidates?.[0]?.failedChecks[0]).toMatch(/^applies: The diff for src\/math\.ts does not apply/);
  });

  it('refuses paths that leave the project, in blocks and in diffs', async () => {
    const block = '```ts ../evil.ts\nexport const x = 1;\n```';
    const absolute = '```diff\n--- /dev/null\n+++ /etc/evil.ts\n@@ -0,0 +1 @@\n+export const x = 1;\n```';
    const traversal = '```diff\n--- a/src/math.ts\n+++ b/../../math.ts\n@@ -1,3 +1,3 @@\n export function add(a: number, b: number): number {\n   return a + b;\n }\n```';
    const engines = [engine('a', block), engine('b', absolute), engine('c', traversal)];
    const error = await rejection(runIteration(options(engines)));
    for (const candidate of error.details?.candidates ?? []) expect(candidate.failedChecks.join(' ')).toMatch(/^paths: .*not a safe file path/);
  });

  it('refuses unsafe paths among the files sent', async () => {
    const error = await rejection(runIteration(options([engine('a', RIGHT)], { files: { '../x.ts': 'x' } })));
    expect(error.code).toBe('BAD_REQUEST');
  });

  it('serves light requests with one engine and heavy ones with consensus in auto mode', async () => {
    const light = [engine('a', RIGHT), engine('b', RIGHT), engine('c', RIGHT)];
    const lightOutcome = await runIteration(options(light, { mode: 'auto' }));
    expect(lightOutcome.mode).toBe('single');
    expect(light.map((e) => e.calls.length)).toEqual([1, 0, 0]);
    expect(lightOutcome.candidates).toHaveLength(1);

    const heavy = [engine('a', RIGHT, 'subtract'), engine('b', RIGHT, 'subtract'), engine('c', RIGHT, 'subtract')];
    const files = { ...FILES, 'src/big.ts': `export const big = ${JSON.stringify('x'.repeat(9000))};\n` };
    const heavyOutcome = await runIteration(options(heavy, { mode: 'auto', files }));
    expect(heavyOutcome.mode).toBe('consensus');
    expect(heavyOutcome.candidates).toHaveLength(3);
  });

  it('counts an engine that throws as a failed candidate, with a generic reason', async () => {
    const failing = scriptedEngine('vendor-secret', () => new EngineError('vendor-secret', 'server', 'vendor-secret answered 500'));
    const outcome = await runIteration(options([failing, engine('b', RIGHT)]));
    expect(outcome.winner).toBe('Engine 2');
    expect(outcome.candidates[0]).toEqual({ engine: 'Engine 1', passed: false, failedChecks: ['engine: The engine did not answer (server).'] });
    expect(JSON.stringify(outcome.candidates)).not.toContain('vendor-secret');
  });

  it('falls back to the next engine in single mode when the first does not answer', async () => {
    const failing = scriptedEngine('a', () => new EngineError('a', 'timeout', 'timed out'));
    const outcome = await runIteration(options([failing, engine('b', RIGHT)], { mode: 'single' }));
    expect(outcome.winner).toBe('Engine 2');
    expect(outcome.candidates.map((c) => c.passed)).toEqual([false, true]);
  });

  it('fails an answer cut off at the output limit', async () => {
    const cut = scriptedEngine('a', () => ({ text: RIGHT_DIFF, finishReason: 'length' }));
    const error = await rejection(runIteration(options([cut], { mode: 'single' })));
    expect(error.details?.candidates?.[0]?.failedChecks.join(' ')).toMatch(/cut off at the output limit/);
  });

  it('asks every engine to propose before any answer arrives, and every voter before any vote', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let proposalsStarted = 0;
    let votesStarted = 0;
    const gated = (key: string, text: string) =>
      scriptedEngine(key, async (request) => {
        if (isVote(request)) {
          votesStarted++;
          // Votes wait until all three voters were asked.
          while (votesStarted < 3) await new Promise((r) => setTimeout(r, 1));
          return 'VOTE: A';
        }
        proposalsStarted++;
        await gate;
        return text;
      });
    const engines = [gated('a', RIGHT), gated('b', RIGHT_DIFF), gated('c', BROKEN_SYNTAX)];
    const pending = runIteration(options(engines));
    await new Promise((r) => setTimeout(r, 20));
    expect(proposalsStarted).toBe(3);
    release();
    const outcome = await pending;
    expect(votesStarted).toBe(3);
    expect(outcome.candidates.map((c) => c.passed)).toEqual([true, true, false]);
  });

  it('ranks several passing candidates by votes, then by fewer changed lines', async () => {
    const small = RIGHT;
    const large = RIGHT.replace('  return a - b;', '  const difference = a - b;\n  return difference;');
    // Two voters prefer the larger change: votes beat size.
    const voted = await runIteration(options([engine('a', small, 'difference'), engine('b', large, 'difference'), engine('c', BROKEN_SYNTAX, 'return a - b')], { random: () => 0.5 }));
    expect(voted.files['src/math.ts']).toContain('difference');
    expect(voted.consensusScore).toBeCloseTo(2 / 3);
    expect(voted.modelVotes).toBe('Engine 1, Engine 2');
    expect(voted.winner).toBe('Engine 2');

    // No readable vote: the smaller change wins and no consensus is claimed.
    const unread = await runIteration(options([engine('a', large), engine('b', small)]));
    expect(unread.winner).toBe('Engine 2');
    expect(unread.consensusScore).toBe(0);
    expect(unread.modelVotes).toBe('');
  });

  it('gives a new file a /dev/null diff', async () => {
    const answer = '```ts src/sub.ts\nexport const sub = (a: number, b: number): number => a - b;\n```';
    const outcome = await runIteration(options([engine('a', answer)], { mode: 'single' }));
    expect(outcome.patch).toContain('--- /dev/null\n+++ b/src/sub.ts');
    expect(outcome.patch).toContain('new file mode');
    const [filePatch] = parsePatch(outcome.patch);
    expect(applyPatch('', filePatch!)).toBe(outcome.files['src/sub.ts']);
  });

  it('stops when the signal aborts', async () => {
    const controller = new AbortController();
    const slow = scriptedEngine('a', async (request) => {
      await new Promise((_, reject) => request.signal?.addEventListener('abort', () => reject(new EngineError('a', 'aborted', 'aborted'))));
      return RIGHT;
    });
    const pending = runIteration(options([slow, engine('b', RIGHT)], { signal: controller.signal }));
    controller.abort(new Error('client left'));
    await expect(pending).rejects.toThrow('client left');
  });
});
