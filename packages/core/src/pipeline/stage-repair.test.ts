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
import { directImports, filesNamedIn } from './stage-repair.js';
import { scriptedEngine, systemOf } from './testing-engines.js';
import type { ProjectCheck } from './verify.js';

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

describe('what a repair of a runtime problem is shown', () => {
  const project = new Set(['main.js', 'src/view.js', 'src/cart.js', 'src/a.ts', 'pricing.js', 'app/util.py', 'main.py', 'css/site.css', 'js/app.js']);

  it('names every project file on a stack or in the output, in the order printed, each once', () => {
    const node = "TypeError: x is undefined\n    at render (src/view.js:3:9)\n    at main.js:5:1\n    at node_modules/lib/index.js:2:2\n    at render (src/view.js:8:1)";
    expect(filesNamedIn(node, project)).toEqual(['src/view.js', 'main.js']);
    const page = "TypeError: Cannot read properties of undefined (reading 'toFixed')\n    at http://project.local/pricing.js:2:9\n    at http://project.local/main.js:3:70";
    expect(filesNamedIn(page, project)).toEqual(['pricing.js', 'main.js']);
    const python = 'Traceback (most recent call last):\n  File "main.py", line 9, in <module>\n  File "app/util.py", line 4, in run\nKeyError: \'PORT\'';
    expect(filesNamedIn(python, project)).toEqual(['main.py', 'app/util.py']);
    expect(filesNamedIn('src/a.ts(3,5): error TS2322; see ./src/cart.js: and main.js.', project)).toEqual(['src/a.ts', 'src/cart.js', 'main.js']);
    expect(filesNamedIn('loaded [main.js] and {pricing.js}, then `js/app.js`', project)).toEqual(['main.js', 'pricing.js', 'js/app.js']);
    // Only whole paths of the project: not a file of the same name elsewhere, not a longer name.
    expect(filesNamedIn('at lib/main.js:1:1 and mainjs and main.jsx and /usr/lib/main.js', project)).toEqual([]);
  });

  it('lists the project files a module imports directly, resolved as the imports check resolves them', () => {
    const js = "import { a } from './src/cart';\nimport b from './src/a.js';\nimport './css/site.css';\nimport c from 'chalk';\nimport fs from 'node:fs';\nconst d = require('./pricing.js');\nconst e = await import('/js/app.js');\nimport f from './missing.js';\nimport g from './main.js';\n";
    expect(directImports('main.js', js, project)).toEqual(['src/cart.js', 'src/a.ts', 'css/site.css', 'pricing.js', 'js/app.js']);
    expect(directImports('src/view.js', "import { total } from './cart.js';\nimport { p } from '../pricing.js?v=2';\nimport { again } from './cart.js';\n", project)).toEqual(['src/cart.js', 'pricing.js']);
  });

  it("lists a page's own scripts and stylesheets", () => {
    const html =
      '<!doctype html><html><head><link rel="stylesheet" href="css/site.css"><script src="https://cdn.example.com/lib.js"></script><script src="//cdn.example.com/x.js"></script><script type="module" src="/main.js"></script><script src="js/app.js?v=1"></script></head><body></body></html>';
    expect(directImports('index.html', html, project)).toEqual(['css/site.css', 'main.js', 'js/app.js']);
  });

  it("lists a Python module's local imports: relative, absolute from the root or its folder, and modules imported by name", () => {
    const files = new Set(['main.py', 'shop/__init__.py', 'shop/pricing.py', 'shop/tax.py', 'shop/cart/__init__.py', 'app/helpers.py', 'app/run.py', 'config.py']);
    const main = 'import os\nimport config, shop.tax as tax\nfrom shop.pricing import price_with_tax\nfrom shop import cart\nfrom shop import (tax,\n    pricing)\n';
    expect(directImports('main.py', main, files)).toEqual(['config.py', 'shop/tax.py', 'shop/pricing.py', 'shop/__init__.py', 'shop/cart/__init__.py']);
    expect(directImports('shop/pricing.py', 'from .tax import rate\nfrom . import cart\nfrom .. import config\n', files)).toEqual(['shop/tax.py', 'shop/cart/__init__.py', 'config.py']);
    // A script's own folder is on the path when it runs.
    expect(directImports('app/run.py', 'import helpers\nfrom helpers import go\nimport main\n', files)).toEqual(['app/helpers.py', 'main.py']);
  });

  it('shows the files on the stack and those the failing file imports, within a cap, the files with problems first', async () => {
    const big = `export const TABLE = ${JSON.stringify('x'.repeat(31_000))};\n`;
    const fault: FaultCase = {
      id: 'runtime-context',
      kind: 'node-js',
      defect: 'cart.js returns nothing and view.js crashes on it',
      files: {
        'package.json': JSON.stringify({ name: 'shop', type: 'module', scripts: { start: 'node main.js' } }),
        'main.js': "import { render } from './src/view.js';\n\nrender();\n",
        'src/view.js': "import { total } from './cart.js';\nimport { TABLE } from './table.js';\n\nexport function render() {\n  console.log(total([1]).toFixed(2), TABLE.length);\n}\n",
        'src/cart.js': 'export function total(items) {\n  items.reduce((a, b) => a + b, 0);\n}\n',
        'src/table.js': big,
        'src/unrelated.js': 'export const UNRELATED = 1;\n',
      },
      fix: { files: { 'src/cart.js': 'export function total(items) {\n  return items.reduce((a, b) => a + b, 0);\n}\n' } },
      engineFixes: true,
    };
    // The execution gate's verdict for these files, as it would report the crash (with the command
    // and the output as detail); the gate itself runs in proof/repair-context.int.test.ts.
    const check: ProjectCheck = async (files) => ({
      checked: [{ path: 'main.js', checks: ['start'] }],
      problems: files['src/cart.js']!.includes('return')
        ? []
        : [
            {
              path: 'src/view.js',
              check: 'start',
              line: 5,
              message: "it exited with status 1 within 3 s: TypeError: Cannot read properties of undefined (reading 'toFixed')",
              detail: "$ npm start (node main.js src/unrelated.js)\nTypeError: Cannot read properties of undefined (reading 'toFixed')\n    at render (src/view.js:5:30)\n    at main.js:3:1",
            },
          ],
    });
    const run = await runFaultCase(fault, { verify: check });
    const prompt = repairs(run)[0]!.user;
    const files = prompt.slice(prompt.indexOf('The files involved:'));
    const order = ['src/view.js', 'package.json', 'main.js', 'src/cart.js'].map((path) => files.indexOf(fault.files[path]!));
    expect(order.every((at) => at > 0)).toBe(true);
    expect(order).toEqual([...order].sort((a, b) => a - b));
    // Too big for the room the related files get: named, not shown. Not on the stack, not imported (only in the command): left out.
    expect(files).toContain('Other files (not shown for lack of room): src/table.js');
    expect(files).not.toContain(big.slice(0, 200));
    expect(files).not.toContain('UNRELATED');
    expect(run.result).toMatchObject({ repaired: true, repairCalls: 1 });
  });

  it('leaves the context of a static problem as it was: the file itself and the manifest', async () => {
    const run = await runFaultCase(corpus('never-fixes-syntax'));
    const files = repairs(run)[0]!.user.split('The files involved:')[1]!;
    expect(files).toMatch(/app\.js/);
    expect(files).not.toContain('<!doctype html>');
  });
});
