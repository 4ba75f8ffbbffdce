import { describe, expect, it } from 'vitest';
import { REACT_TS } from '../pipeline/faults/projects.js';
import { skipped } from './check-context.js';
import { projectKinds, provesKind } from './execute-project.js';
import type { ExecCheck } from './report.js';

const check = (name: ExecCheck['check'], runtime: ExecCheck['runtime'], files: string[] = []) => skipped(name, runtime, files, 'not run');
const proving = (files: Record<string, string>, checks: ExecCheck[]) => checks.filter((c) => provesKind(projectKinds(files), c)).map((c) => `${c.runtime} ${c.check}`);

describe('provesKind: the checks without which a project is not proven', () => {
  it('a bundled app: its build and render, not its dev server', () => {
    expect(proving(REACT_TS, [check('install', 'node'), check('tests', 'node'), check('start', 'node'), check('build', 'web'), check('render', 'web')])).toEqual(['web build', 'web render']);
  });

  it('a server of its own beside a bundled app: its start too', () => {
    const files = { ...REACT_TS, 'package.json': REACT_TS['package.json']!.replace('"dev": "vite"', '"start": "node server.js", "dev": "vite"'), 'server.js': '' };
    expect(proving(files, [check('start', 'node', ['server.js']), check('build', 'web')])).toEqual(['node start', 'web build']);
  });

  it('a Node server or program: its start, also when it could not be tried for a missing build output', () => {
    const server = { 'package.json': '{"scripts":{"start":"node server.js"}}', 'server.js': '' };
    expect(proving(server, [check('install', 'node'), check('tests', 'node'), check('start', 'node', ['server.js'])])).toEqual(['node start']);
    const unbuilt = { 'package.json': '{"scripts":{"start":"node dist/index.js"}}', 'src/index.ts': '' };
    expect(projectKinds(unbuilt).node!.start).toMatchObject({ skip: expect.stringMatching(/needs dist\/index\.js/) });
    expect(proving(unbuilt, [check('start', 'node')])).toEqual(['node start']);
  });

  it('a library with nothing to start: no check proves its kind, so its tests and reads can pass it', () => {
    expect(proving({ 'package.json': '{}', 'lib.js': '', 'lib.test.js': '' }, [check('install', 'node'), check('tests', 'node'), check('start', 'node')])).toEqual([]);
  });

  it('static pages: each page load; Python: a start with an entry to run', () => {
    expect(proving({ 'index.html': '<p>hi</p>' }, [check('page-load', 'web', ['index.html'])])).toEqual(['web page-load']);
    const python = { 'main.py': 'print(1)', 'util.py': '' };
    expect(proving(python, [check('syntax', 'python', ['main.py']), check('start', 'python', ['main.py'])])).toEqual(['python start']);
    expect(proving({ 'util.py': '' }, [check('start', 'python', [])])).toEqual([]);
  });
});
