// A crash shows where a bad value is used, not where it was made: a page that throws in main.js
// because pricing.js's function returns nothing. Through the real pipeline and the real execution
// gate, with a scripted engine that can only fix what it is shown: the repair prompt must carry
// the files the failing file imports, and the repair of the file that was wrong then passes.
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { formatFileBlock } from '../pipeline/file-blocks.js';
import { runFaultCase, type FaultCase } from '../pipeline/faults/index.js';
import { needTool } from '../testing/required-tool.js';
import { sandboxCheck } from '../testing/sandbox-tool.js';
import { createExecutionGate } from './execution-gate.js';

const sandboxed = needTool(await sandboxCheck(), 'repairs of runtime problems through the execution gate');
const chromium =
  sandboxed && needTool({ tool: 'chromium', available: existsSync('/usr/lib/chromium/chromium') || existsSync('/usr/bin/chromium') }, 'the repair of a page that throws');

/**
 * A case whose engine, like a model, fixes the file that is wrong only when the prompt shows it;
 * shown only the file that crashed, it sends that file back as it was.
 */
function culpritCase(id: string, kind: FaultCase['kind'], files: Record<string, string>, culprit: string, fixed: string, crashed: string): FaultCase {
  return {
    id,
    kind,
    defect: `${culprit}'s function returns nothing, and ${crashed} crashes using the result`,
    files,
    fix: { files: { [culprit]: fixed } },
    engineFixes: true,
    needsExecution: true,
    expect: new RegExp(crashed.replace('.', '\\.')),
    expectCalls: { repair: 1 },
    reply: (call) => {
      if (call.kind !== 'repair') return undefined;
      if (call.user.includes(files[culprit]!)) return `The function never returned its result.\n\n${formatFileBlock(culprit, fixed)}`;
      return `I fixed the problem.\n\n${formatFileBlock(crashed, files[crashed]!)}`;
    },
  };
}

async function repairOf(fault: FaultCase, culprit: string, crashed: string) {
  const gate = createExecutionGate({ env: {} });
  const run = await runFaultCase(fault, { verify: gate.check });
  const repairs = run.calls.filter((c) => c.kind === 'repair');
  expect(repairs.length, JSON.stringify(run.result.problems)).toBeGreaterThan(0);
  const prompt = repairs[0]!.user;
  // The file that crashed and the file it imports, whole, the one with the problem first.
  expect(prompt).toContain(fault.files[crashed]);
  expect(prompt).toContain(fault.files[culprit]);
  expect(prompt.indexOf(fault.files[crashed]!)).toBeLessThan(prompt.indexOf(fault.files[culprit]!));
  expect(run.result.notes).toEqual([]);
  expect(run.result).toMatchObject({ detected: true, repaired: true, repairCalls: 1, ok: true });
  expect(run.outcome.files[culprit]).toBe(fault.fix!.files![culprit]);
  expect(run.outcome.verification.passed).toBe(true);
  const report = await gate.reportFor(run.outcome.files);
  expect(report.checks.filter((c) => c.status === 'failed')).toEqual([]);
  return prompt;
}

describe.skipIf(!chromium)('the repair of a page that throws in one file because of another', () => {
  it('shows the engine pricing.js, which main.js imports, and the repair of pricing.js passes', { timeout: 120_000 }, async () => {
    const pricing = 'export function priceWithTax(price) {\n  const total = price * 1.2;\n}\n';
    const files = {
      'index.html': '<!doctype html>\n<html lang="en">\n<head>\n  <meta charset="utf-8">\n  <title>Price</title>\n  <script type="module" src="main.js"></script>\n</head>\n<body>\n  <p>Total: <output id="total"></output></p>\n</body>\n</html>\n',
      'main.js': "import { priceWithTax } from './pricing.js';\n\ndocument.getElementById('total').textContent = priceWithTax(10).toFixed(2);\n",
      'pricing.js': pricing,
      'styles.css': 'body { font-family: sans-serif; }\n',
    };
    const fixed = 'export function priceWithTax(price) {\n  return price * 1.2;\n}\n';
    const prompt = await repairOf(culpritCase('page-imported-returns-nothing', 'static-web', files, 'pricing.js', fixed, 'main.js'), 'pricing.js', 'main.js');
    expect(prompt).toMatch(/main\.js: page-load: uncaught TypeError: Cannot read properties of undefined \(reading 'toFixed'\)/);
    // Files neither on the stack nor imported stay out.
    expect(prompt).not.toContain('font-family');
  });
});

describe.skipIf(!sandboxed)('the repair of a program that crashes in one file because of another', () => {
  it('Node: shows the module the entry imports', { timeout: 120_000 }, async () => {
    const files = {
      'package.json': JSON.stringify({ name: 'cart', type: 'module', scripts: { start: 'node src/index.js' } }, null, 2),
      'src/index.js': "import { total } from './cart.js';\n\nconst items = [{ price: 2.5 }, { price: 4 }];\nconsole.log(`Total: ${total(items).toFixed(2)}`);\n",
      'src/cart.js': 'export function total(items) {\n  items.reduce((sum, item) => sum + item.price, 0);\n}\n',
    };
    const fixed = 'export function total(items) {\n  return items.reduce((sum, item) => sum + item.price, 0);\n}\n';
    await repairOf(culpritCase('node-imported-returns-nothing', 'node-js', files, 'src/cart.js', fixed, 'src/index.js'), 'src/cart.js', 'src/index.js');
  });

  it('Python: shows the module the entry imports', { timeout: 120_000 }, async () => {
    const files = {
      'main.py': 'from shop.pricing import price_with_tax\n\n\ndef main():\n    print(f"Total: {price_with_tax(10):.2f}")\n\n\nif __name__ == "__main__":\n    main()\n',
      'shop/__init__.py': '',
      'shop/pricing.py': 'def price_with_tax(price):\n    total = price * 1.2\n',
    };
    const fixed = 'def price_with_tax(price):\n    return price * 1.2\n';
    await repairOf(culpritCase('python-imported-returns-nothing', 'python', files, 'shop/pricing.py', fixed, 'main.py'), 'shop/pricing.py', 'main.py');
  });
});
