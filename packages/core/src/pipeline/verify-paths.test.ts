import { describe, expect, it } from 'vitest';
import { coverage, describeCoverage, verifyProject } from './verify.js';
import { checkPaths } from './verify-paths.js';

describe('checkPaths', () => {
  it('flags a doubled folder only when its twin exists', () => {
    expect(checkPaths(['src/x.ts', 'src/src/x.ts'])).toEqual([
      { path: 'src/src/x.ts', check: 'duplicates', message: expect.stringContaining('duplicates src/x.ts; keep one of them (DELETE: src/src/x.ts') },
    ]);
    // A project may really have a src/src folder; alone it is not a mistake.
    expect(checkPaths(['src/src/x.ts', 'src/y.ts'])).toEqual([]);
  });

  it('flags paths that differ only in letter case', () => {
    expect(checkPaths(['src/App.ts', 'src/app.ts'])).toEqual([
      { path: 'src/app.ts', check: 'duplicates', message: 'src/app.ts and src/App.ts differ only in letter case and overwrite each other on macOS and Windows; keep one of them' },
    ]);
  });
});

describe('verifyProject: layout and coverage', () => {
  it('reports the doubled copy, lists the rule on that file only, and does not call it covered by it', () => {
    const report = verifyProject({ 'src/x.js': 'export const x = 1;\n', 'src/src/x.js': 'export const x = 1;\n', 'main.py': 'print(1)\n' });
    expect(report.problems).toEqual([expect.objectContaining({ path: 'src/src/x.js', check: 'duplicates' })]);
    expect(report.checked).toEqual([
      { path: 'main.py', checks: [] },
      { path: 'src/src/x.js', checks: ['syntax', 'imports', 'duplicates'] },
      { path: 'src/x.js', checks: ['syntax', 'imports'] },
    ]);
    expect(coverage(report)).toEqual({ covered: ['src/src/x.js', 'src/x.js'], uncovered: ['main.py'], checks: ['syntax', 'imports'] });
  });

  it('says when no file was covered at all, naming the files', () => {
    const report = verifyProject({ 'main.py': 'print(1)\n', 'utils.py': 'x = 1\n', 'README.md': '# x\n' });
    expect(report.passed).toBe(true);
    expect(describeCoverage(report)).toBe('no file was covered by a check; 3 files not covered by any check (README.md, main.py, utils.py)');
  });

  it('names the file an import meant when only the letter case differs', () => {
    const report = verifyProject({ 'src/index.js': "import { x } from './Utils.js';\nconsole.log(x);\n", 'src/utils.js': 'export const x = 1;\n' });
    expect(report.problems).toEqual([
      expect.objectContaining({ path: 'src/index.js', check: 'imports', message: expect.stringMatching(/^'\.\/Utils\.js' does not match any generated file .*; src\/utils\.js differs only in letter case, and imports are case-sensitive$/) }),
    ]);
  });
});
