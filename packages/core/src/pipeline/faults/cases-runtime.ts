/**
 * Defects only running the code shows. The static checks pass these projects, so without an
 * execution check (PipelineInput.extraCheck) a run would call them proven: they are marked
 * `needsExecution` and run only when such a check is plugged in.
 */
import { formatFileBlock } from '../file-blocks.js';
import type { FaultCase } from './fault-case.js';
import { changed, NODE_JS, oneEdit, PYTHON, STATIC_WEB } from './projects.js';

/** An entry point that reads a config file nobody wrote: it throws before doing anything. */
const CRASHING_INDEX = NODE_JS['src/index.js']!.replace(
  "import chalk from 'chalk';",
  "import chalk from 'chalk';\nimport { readFileSync } from 'node:fs';\n\nconst config = JSON.parse(readFileSync('config.json', 'utf8'));\nconsole.log(config.currency);",
);

export const RUNTIME_CASES: FaultCase[] = [
  {
    id: 'throws-at-start',
    kind: 'node-js',
    defect: 'the entry point reads a config file that does not exist and throws at start',
    files: changed(NODE_JS, { 'src/index.js': CRASHING_INDEX }),
    fix: { files: { 'src/index.js': NODE_JS['src/index.js']! } },
    engineFixes: true,
    needsExecution: true,
    expect: /src\/index\.js/,
  },
  {
    id: 'failing-test',
    kind: 'node-js',
    defect: 'a generated test that fails: the tip is off by a factor of ten',
    ...oneEdit(NODE_JS, 'src/tip.js', '/ 100;', '/ 10;'),
    engineFixes: true,
    needsExecution: true,
    expect: /tip/,
  },
  {
    id: 'todo-stub-returns-nothing',
    kind: 'node-js',
    defect: 'a function left as "// TODO: implement" that returns nothing',
    ...oneEdit(NODE_JS, 'src/tip.js', "  if (people < 1) throw new Error('At least one person pays.');\n  return total / people;", '  // TODO: implement'),
    engineFixes: true,
    needsExecution: true,
    expect: /tip/,
  },
  {
    id: 'missing-named-export-js',
    kind: 'node-js',
    defect: 'a JavaScript import of a name the module does not export',
    files: changed(NODE_JS, { 'src/index.js': NODE_JS['src/index.js']!.replace('{ tip, split }', '{ tip, split, round }').replace('.toFixed(2)', '') + 'console.log(round(1.005));\n' }),
    fix: { files: { 'src/index.js': NODE_JS['src/index.js']! } },
    engineFixes: true,
    needsExecution: true,
    expect: /round/,
  },
  {
    id: 'python-syntax-error',
    kind: 'python',
    defect: 'a Python syntax error (a missing colon)',
    ...oneEdit(PYTHON, 'inventory/store.py', 'def report(self) -> str:', 'def report(self) -> str'),
    engineFixes: true,
    needsExecution: true,
    expect: /inventory\/store\.py/,
  },
  {
    id: 'python-missing-module',
    kind: 'python',
    defect: 'a Python import of a local module that was never written',
    ...oneEdit(PYTHON, 'main.py', 'from inventory.store import Store', 'from inventory.store import Store\nfrom inventory.export import to_csv'),
    engineFixes: true,
    needsExecution: true,
    expect: /inventory[./]export|main\.py/,
  },
  {
    // Only a run shows what was wrong with the original, so only the memory of which versions
    // repairs replaced can stop Polishing from putting it back.
    id: 'polish-restores-crashing',
    kind: 'node-js',
    defect: 'Polishing answers with the original entry point that crashed at start, after a repair fixed it',
    files: changed(NODE_JS, { 'src/index.js': CRASHING_INDEX }),
    fix: { files: { 'src/index.js': NODE_JS['src/index.js']! } },
    engineFixes: true,
    needsExecution: true,
    reply: (call) =>
      call.kind === 'polish'
        ? formatFileBlock('src/index.js', CRASHING_INDEX)
        : undefined,
    expect: /src\/index\.js/,
    expectCalls: { repair: 1 },
  },
  {
    id: 'page-throws-on-load',
    kind: 'static-web',
    defect: 'the page script looks up an element id the page does not have and throws on load',
    ...oneEdit(STATIC_WEB, 'app.js', "getElementById('books')", "getElementById('book-list')"),
    engineFixes: true,
    needsExecution: true,
    expect: /app\.js/,
  },
];
