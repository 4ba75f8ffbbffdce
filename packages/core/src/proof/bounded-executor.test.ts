import { describe, expect, it } from 'vitest';
import { Slots } from '../util/slots.js';
import { boundedExecutor } from './bounded-executor.js';
import { createExecutionGate, waitingForSandbox } from './execution-gate.js';
import type { ExecuteOptions } from './execute-project.js';
import type { ExecutionReport } from './report.js';

const report: ExecutionReport = { executed: true, sandbox: 'bubblewrap', runtimes: ['web'], checks: [], durationMs: 1 };

describe('boundedExecutor', () => {
  it("runs one gate's project at a time, tells the waiting ones' notes, and never hands onWait to what runs the project", async () => {
    const seen: ExecuteOptions[] = [];
    const release: Array<() => void> = [];
    const execute = boundedExecutor(async (_files, options = {}) => {
      seen.push(options);
      await new Promise<void>((resolve) => release.push(resolve));
      return report;
    }, new Slots(1));
    const notes: string[][] = [[], [], []];
    const gates = notes.map(() => createExecutionGate({ execute }));
    const reports = gates.map((gate, i) => gate.reportFor({ 'index.html': `<p>${i}</p>` }, undefined, (m) => notes[i]!.push(m)));
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toHaveLength(1);
    expect(notes).toEqual([[], [waitingForSandbox(0)], [waitingForSandbox(1)]]);
    release.shift()!();
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toHaveLength(2);
    release.shift()!();
    await new Promise((resolve) => setImmediate(resolve));
    release.shift()!();
    expect(await Promise.all(reports)).toEqual([report, report, report]);
    for (const options of seen) expect(options).not.toHaveProperty('onWait');
  });

  it("gives the turns user by user, told by each project's owner, which it never hands to what runs the project", async () => {
    const seen: Array<{ files: string; options: ExecuteOptions }> = [];
    const release: Array<() => void> = [];
    const execute = boundedExecutor(async (files, options = {}) => {
      seen.push({ files: Object.values(files)[0]!, options });
      await new Promise<void>((resolve) => release.push(resolve));
      return report;
    }, new Slots(1));
    const waits: Record<string, number[]> = {};
    const run = (userId: string, name: string) => execute({ 'index.html': name }, { owner: { userId, projectId: name }, onWait: (ahead) => (waits[name] ??= []).push(ahead) });
    const all = [run('ann', 'ann-1'), run('ann', 'ann-2'), run('ann', 'ann-3')];
    expect(waits).toEqual({ 'ann-2': [0], 'ann-3': [1] });
    // Bob's first comes before Ann's second: each of hers that waits is told it has one more before it.
    all.push(run('bob', 'bob-1'));
    expect(waits).toEqual({ 'ann-2': [0, 1], 'ann-3': [1, 2], 'bob-1': [0] });
    for (let i = 0; i < 4; i += 1) {
      await new Promise((resolve) => setImmediate(resolve));
      release.shift()!();
    }
    await Promise.all(all);
    expect(seen.map((s) => s.files)).toEqual(['ann-1', 'bob-1', 'ann-2', 'ann-3']);
    // As the turns were given, each was told it moved up, down to "runs next".
    expect(waits).toEqual({ 'ann-2': [0, 1, 0], 'ann-3': [1, 2, 1, 0], 'bob-1': [0] });
    for (const { options } of seen) expect(options).not.toHaveProperty('owner');
  });

  it('words the wait for the Activity Feed', () => {
    expect(waitingForSandbox(0)).toBe('Waiting for a free sandbox: the server is running as many projects as it runs at once, and it runs next.');
    expect(waitingForSandbox(1)).toMatch(/, and 1 project waits before it\.$/);
    expect(waitingForSandbox(3)).toMatch(/, and 3 projects wait before it\.$/);
  });
});
