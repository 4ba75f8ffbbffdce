import { describe, expect, it } from 'vitest';
import { prescanModules, scanModule } from './scan-module.js';

// Each case under a path of its own per test, so no result is cached from another test.
const CASES: Record<string, string> = {
  'app.js': "import { a } from './a.js';\nconst b = require('b');\nimport('./lazy.js');\nexport default a + b;\n",
  'broken.js': 'const items = [1, 2;\n',
  'cut.ts': 'export function f(x: number) {\n  return x +\n',
  'view.js': "import React from 'react';\nexport const V = () => <div>…</div>;\n",
  'page.tsx': "import type { FC } from 'react';\nimport { useState } from 'react';\nexport const P: FC = () => { const [n] = useState(0); return <p>{n}</p>; };\n",
  'style.css': "@import './base.css';\n.a { color: red; \n",
  'notes.md': '# not a module\n',
};

describe('prescanModules', () => {
  it('remembers exactly what scanModule would find, for every kind of file', async () => {
    await prescanModules(Object.entries(CASES).map(([path, content]) => ({ path: `pre/${path}`, content })));
    for (const [path, content] of Object.entries(CASES)) {
      // The same content under a path not scanned before: scanModule's own synchronous build.
      const fresh = scanModule(`fresh/${path}`, content);
      expect(scanModule(`pre/${path}`, content), path).toEqual(fresh);
    }
    // The cases really differ: errors where the code is broken, imports where it imports.
    expect(scanModule('fresh/broken.js', CASES['broken.js']!)!.errors.length).toBeGreaterThan(0);
    expect(scanModule('fresh/view.js', CASES['view.js']!)!.errors).toEqual([]);
    expect(scanModule('fresh/app.js', CASES['app.js']!)!.imports.map((i) => i.kind).sort()).toEqual(['dynamic-import', 'import', 'require']);
    expect(scanModule('fresh/notes.md', CASES['notes.md']!)).toBeNull();
  });

  it('scans many files at once without mixing their results up', async () => {
    const files = Array.from({ length: 40 }, (_, i) => ({ path: `many/m${i}.js`, content: `import x from './dep${i}.js';\nexport default x${i % 7 === 0 ? ' +' : ''};\n` }));
    await prescanModules(files);
    for (const [i, f] of files.entries()) {
      const scan = scanModule(f.path, f.content)!;
      // A file that does not parse lists no imports.
      const broken = i % 7 === 0;
      expect(scan.errors.length > 0, f.path).toBe(broken);
      expect(scan.imports).toEqual(broken ? [] : [{ specifier: `./dep${i}.js`, kind: 'import' }]);
    }
  });
});
