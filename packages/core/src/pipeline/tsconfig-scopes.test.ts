import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROCESS_ENV_LINE, viteProcessEnv, viteRouterApp } from '../proof/fixtures/bundled.js';
import { writeLibraryNodeModules } from '../proof/testing/library-packages.js';
import { REACT_TS } from './faults/projects.js';
import { tsconfigScopes } from './tsconfig-scopes.js';
import { typeCheck } from './verify-types.js';

const json = (value: unknown) => JSON.stringify(value);

describe('tsconfigScopes', () => {
  it('follows a solution-style root to the configs it references, each with its own types and lib', () => {
    const paths = ['src/App.tsx', 'src/main.tsx', 'vite.config.ts', 'scripts/seed.ts'];
    expect(tsconfigScopes(viteRouterApp, paths)).toEqual({
      scopes: [
        { config: 'tsconfig.app.json', types: ['vite/client'], lib: ['ES2022', 'DOM', 'DOM.Iterable'], files: ['src/App.tsx', 'src/main.tsx'] },
        { config: 'tsconfig.node.json', types: [], lib: ['ES2023'], files: ['vite.config.ts'] },
      ],
      uncovered: ['scripts/seed.ts'],
    });
  });

  it('reads include, exclude, files and the extends of the project\'s own configs; no root tsconfig, no scope', () => {
    const files = {
      'tsconfig.base.json': json({ compilerOptions: { types: ['node'], lib: ['ES2022'] } }),
      'tsconfig.json': json({ extends: './tsconfig.base.json', compilerOptions: { lib: ['ES2023'] }, include: ['src/**/*.ts'], exclude: ['src/legacy*'], files: ['tools/run.ts'] }),
    };
    const paths = ['src/a.ts', 'src/deep/b.ts', 'src/legacy-old/c.ts', 'src/d.tsx', 'tools/run.ts', 'tools/other.ts'];
    expect(tsconfigScopes(files, paths)).toEqual({
      scopes: [{ config: 'tsconfig.json', types: ['node'], lib: ['ES2023'], files: ['src/a.ts', 'src/deep/b.ts', 'tools/run.ts'] }],
      uncovered: ['src/legacy-old/c.ts', 'src/d.tsx', 'tools/other.ts'],
    });
    // Neither include nor files: everything but node_modules.
    expect(tsconfigScopes({ 'tsconfig.json': '{ "compilerOptions": { "strict": true, } }' }, ['a.ts', 'src/b.ts']).scopes[0]).toMatchObject({ types: undefined, lib: undefined, files: ['a.ts', 'src/b.ts'] });
    expect(tsconfigScopes({ 'tsconfig.app.json': json({ include: ['src'] }) }, ['src/a.ts'])).toEqual({ scopes: [], uncovered: ['src/a.ts'] });
  });
});

describe("typeCheck against installed packages, with the project's tsconfig", () => {
  const scratch = mkdtempSync(join(tmpdir(), 'wolfpack-tsconfig-types-'));
  // @types/node is installed (as another package's dependency would bring it), but the app's
  // tsconfig names only vite/client.
  const installed = join(scratch, 'node_modules');
  beforeAll(() => {
    writeLibraryNodeModules(installed, ['react@19', 'react-dom@19', '@types/react@19', '@types/react-dom@19', '@types/node@24'], {
      vite: {
        '8.0.0': {
          'package.json': json({ types: 'index.d.ts' }),
          'index.d.ts': 'export declare function defineConfig(config: { plugins?: unknown[] }): unknown;\n',
          'client.d.ts': "interface ImportMetaEnv { readonly [key: string]: string | undefined }\ninterface ImportMeta { readonly env: ImportMetaEnv }\ndeclare module '*.css';\n",
        },
      },
    });
  }, 120_000);
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it("reports browser code reading process.env under types: [\"vite/client\"], as the project's tsc -b does", () => {
    const problems = typeCheck(viteProcessEnv, { nodeModules: installed });
    expect(problems).toEqual([expect.objectContaining({ path: 'src/App.tsx', line: PROCESS_ENV_LINE, check: 'types', message: expect.stringMatching(/^TS2591: Cannot find name 'process'\./) })]);
    expect(typeCheck(viteRouterApp, { nodeModules: installed })).toEqual([]);
  });

  it('gives every installed @types package to a tsconfig that names none, and keeps stand-ins when nothing is installed', () => {
    const readsEnv = { ...REACT_TS, 'src/api.ts': "export const api = process.env.API_URL ?? '/api';\n" };
    expect(typeCheck(readsEnv, { nodeModules: installed })).toEqual([]);
    expect(typeCheck(viteProcessEnv)).toEqual([]);
  });
});
