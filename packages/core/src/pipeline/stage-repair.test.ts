/**
 * Repairs that learn, through whole runs with scripted engines (the corpus cases in faults/ give
 * the scripts): what the next round is told, which engine it goes to, when asking stops, what a
 * repair may delete, and which changes are refused because they bring a fixed problem back.
 */
import { describe, expect, it } from 'vitest';
import { formatFileBlock } from './file-blocks.js';
import { FAULT_CASES, runFaultCase, type FaultCase } from './faults/index.js';
import { STATIC_WEB } from './faults/projects.js';
import { runPipeline, type PipelineCheckpoint } from './run-pipeline.js';
import { scriptedEngine, systemOf } from './testing-engines.js';

const corpus = (id: string): FaultCase => FAULT_CASES.find((c) => c.id === id)!;
const messages = (run: { logs: { message: string }[] }) => run.logs.map((l) => l.message);
const repairs = (run: Awaited<ReturnType<typeof runFaultCase>>) => run.calls.filter((c) => c.kind === 'repair');

describe('a repair round that did not work', () => {
  it('is described in the next prompt: what was tried, that it did not work, and what is still wrong', async () => {
    const run = await runFaultCase(corpus('repair-unchanged-first'));
    const [first, second] = repairs(run);
    expect(first!.user).not.toContain('Your previous repair');
    expect(second!.user).toContain('Your previous repair (round 1 of Checking, engine alpha) did not work.');
    expect(second!.user).toMatch(/These problems are still there:\napp\.js: syntax: Expected "\)" but found ";" \(line 12\)/);
    // The fresh check output comes first, as in every repair prompt.
    expect(second!.user.indexOf('Problems found by the checks:')).toBeLessThan(second!.user.indexOf('Your previous repair'));
    expect(messages(run)).toContain('Repair round 1: no file changed. 1 problem(s) in 1 file(s): app.js: syntax: Expected ")" but found ";" (line 12)');
  });

  it('says so when the answer changed no file at all, and asks for the file format', async () => {
    const run = await runFaultCase(corpus('repair-ignores-format'));
    expect(repairs(run)[1]!.user).toContain('It changed no file: answer with complete files in the format above (and DELETE:/MOVE: lines), not with prose or a diff.');
  });

  it('names the files the answer changed and the file it left cut off', async () => {
    const run = await runFaultCase(corpus('repair-cut-off'));
    const second = repairs(run)[1]!.user;
    expect(second).toContain('It changed: index.html.');
    expect(second).toContain('It was cut off at the token limit in: app.js. Write only the files you change.');
    expect(run.result.completionCalls).toBe(0);
  });

  it('goes to another engine when several are configured', async () => {
    const run = await runFaultCase(corpus('repair-rotates-engine'));
    expect(repairs(run).map((c) => c.engine)).toEqual(['alpha', 'beta']);
    expect(messages(run)).toContain('Repair round 2 goes to engine beta: the last round (engine alpha) did not fix it.');
    expect(run.result.repaired).toBe(true);
  });

  it('stops asking after the last round: rounds x stages calls, then an honest failure', async () => {
    for (const repairRounds of [1, 2, 3]) {
      const run = await runFaultCase(corpus('never-fixes-syntax'), { repairRounds });
      expect(repairs(run)).toHaveLength(2 * repairRounds);
      expect(run.outcome.verification).toMatchObject({ passed: false, problems: [expect.objectContaining({ path: 'app.js', check: 'syntax' })] });
      expect(messages(run).at(-1)).toMatch(/^Proven Code gate failed:\napp\.js: syntax: /);
    }
  });

  it('carries over from Checking into Proven Code', async () => {
    const run = await runFaultCase(corpus('never-fixes-syntax'));
    const proven = repairs(run)[2]!;
    expect(proven.user).toContain('Your previous repair (round 2 of Checking, engine alpha) did not work.');
  });
});

describe('what a repair may change', () => {
  it('deletes a doubled file, so the fixed one is the only one left', async () => {
    const run = await runFaultCase(corpus('doubled-path'));
    expect(repairs(run)[0]!.user).toContain('src/src/stats.ts: duplicates: src/src/stats.ts repeats a folder name and duplicates src/stats.ts');
    expect(run.outcome.files['src/src/stats.ts']).toBeUndefined();
    expect(run.outcome.files['src/stats.ts']).toBeDefined();
    expect(run.outcome.verification.passed).toBe(true);
  });

  it('is told the block format for deleting and moving files', async () => {
    const run = await runFaultCase(corpus('doubled-path'));
    const system = run.calls.find((c) => c.kind === 'repair')!.system;
    expect(system).toContain('DELETE: path/to/file.ext');
    expect(system).toContain('MOVE: old/path.ext -> new/path.ext');
  });

  it('has a refused move or deletion reported as a warning, not a crash', async () => {
    const fault: FaultCase = {
      ...corpus('js-syntax-error'),
      id: 'refused-operations',
      reply: (call) =>
        call.kind === 'repair' ? `MOVE: app.js -> index.html\nDELETE: ghost.js\n\n${formatFileBlock('app.js', STATIC_WEB['app.js']!)}` : undefined,
    };
    const run = await runFaultCase(fault);
    expect(messages(run)).toEqual(
      expect.arrayContaining([
        'MOVE: app.js -> index.html was refused: index.html already exists (delete it first, or write the file instead).',
        'DELETE: ghost.js was refused: there is no such file.',
      ]),
    );
    expect(run.result.repaired).toBe(true);
  });

  it('is refused, for that file only, when it brings back a problem an earlier round fixed', async () => {
    const run = await runFaultCase(corpus('repair-brings-back-fixed'));
    expect(messages(run)).toContain('Kept the earlier app.js: the repair brought back a problem fixed earlier (app.js: syntax: Expected ")" but found ";" (line 12)).');
    expect(run.outcome.files['index.html']).toBe(STATIC_WEB['index.html']);
    expect(run.outcome.files['app.js']).toBe(STATIC_WEB['app.js']);
    expect(run.result.repaired).toBe(true);
  });
});

describe('Polishing after repairs', () => {
  it('cannot restore a file a repair replaced', async () => {
    const run = await runFaultCase(corpus('polish-restores-broken'));
    expect(messages(run)).toContain('Kept the earlier app.js: the polished version is one an earlier repair replaced because it was broken.');
    expect(run.outcome.files['app.js']).toBe(STATIC_WEB['app.js']);
  });

  it('cannot bring back a fixed problem in a new version either', async () => {
    const run = await runFaultCase(corpus('polish-reintroduces-fixed'));
    expect(run.result.repaired).toBe(true);
    expect(run.outcome.files['package.json']).toContain('chalk');
  });

  it('remembers across a resumed run: the memory travels in the checkpoint', async () => {
    const broken = STATIC_WEB['app.js']!.replace('function render() {', 'function render( {');
    const checkpoints: PipelineCheckpoint[] = [];
    const first = scriptedEngine('alpha', (req) => {
      const system = systemOf(req.messages);
      if (/Planning engine/.test(system)) return 'A list.\nFILE: index.html - page\nFILE: app.js - logic\nFILE: styles.css - styles';
      if (/Checking engine/.test(system)) return formatFileBlock('app.js', STATIC_WEB['app.js']!);
      if (/Polishing engine/.test(system)) throw new Error('the first run stops before Polishing');
      const path = /Write the complete file (\S+) \(/.exec(JSON.stringify(req.messages))?.[1] ?? '';
      return formatFileBlock(path, path === 'app.js' ? broken : STATIC_WEB[path]!);
    });
    await expect(
      (async () => {
        for await (const _ of runPipeline({ idea: 'reading list', engines: [first], onCheckpoint: (cp) => void checkpoints.push(cp) }));
      })(),
    ).rejects.toThrow();
    const afterChecking = checkpoints[2]!;
    expect(afterChecking.files['app.js']).toBe(STATIC_WEB['app.js']);
    expect(Object.keys(afterChecking.memory!.seen)).toEqual([expect.stringMatching(/^app\.js\u001fsyntax\u001f/)]);
    // Stored as PostgreSQL jsonb, which refuses U+0000 anywhere.
    expect(JSON.stringify(afterChecking.memory)).not.toContain('\\u0000');

    const second = scriptedEngine('alpha', (req) => (/Polishing engine/.test(systemOf(req.messages)) ? formatFileBlock('app.js', broken) : 'nothing'));
    const logs: string[] = [];
    const run = runPipeline({ idea: 'reading list', engines: [second], checkpoint: JSON.parse(JSON.stringify(afterChecking)) as PipelineCheckpoint });
    let step = await run.next();
    for (; !step.done; step = await run.next()) if (step.value.type === 'log') logs.push(step.value.message);
    expect(logs).toContain('Kept the earlier app.js: the polished version is one an earlier repair replaced because it was broken.');
    expect(step.value.files['app.js']).toBe(STATIC_WEB['app.js']);
  });
});

describe('cut-off replies', () => {
  it('ask to continue only the file that was cut, not every planned file', async () => {
    const run = await runFaultCase(corpus('truncated-whole-project'));
    expect(run.calls.filter((c) => c.kind === 'completion').map((c) => c.path)).toEqual(['README.md']);
    expect(run.outcome.files).toEqual(STATIC_WEB);
  });
});

describe('the Proven Code line', () => {
  it('calls only covered files checked and names the rest', async () => {
    const web = await runFaultCase(corpus('correct-static-web'));
    expect(messages(web)).toContain('Proven Code: 3 files checked (syntax, imports, html); 1 file not covered by any check (README.md).');
    expect(web.outcome.verification.checkedFiles).toBe(3);
    const python = await runFaultCase(corpus('correct-python'));
    expect(messages(python)).toContain(
      'Proven Code: no file was covered by a check; 6 files not covered by any check (README.md, inventory/__init__.py, inventory/store.py, main.py, requirements.txt, …).',
    );
    expect(python.outcome.verification).toEqual({ passed: true, checkedFiles: 0, problems: [] });
  });
});
