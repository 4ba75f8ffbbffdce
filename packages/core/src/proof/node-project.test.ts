import { describe, expect, it } from 'vitest';
import { planNodeProject } from './node-project.js';
import { refuseSpec } from './node-deps.js';

const pkg = (value: object) => JSON.stringify(value);

describe('planNodeProject', () => {
  it('runs the test script, with the TAP reporter added to a plain node --test', () => {
    const plan = planNodeProject({ 'package.json': pkg({ scripts: { pretest: 'echo pre', test: 'node --test' } }), 'a.test.js': '' });
    expect(plan.tests).toMatchObject({ argv: ['sh', '-c', 'echo pre && node --test --test-reporter=tap'], display: 'npm test (node --test)', tap: true, files: ['a.test.js'] });
  });

  it("ignores npm's placeholder test script and runs the test files with node --test", () => {
    const plan = planNodeProject({ 'package.json': pkg({ scripts: { test: 'echo "Error: no test specified" && exit 1' } }), 'test/x.test.ts': '', 'src/x.ts': '' });
    expect(plan.tests).toMatchObject({ argv: ['node', '--test', '--test-reporter=tap', 'test/x.test.ts'], tap: true });
  });

  it('says why tests cannot run when they need an undeclared runner or a .tsx setup', () => {
    expect(planNodeProject({ 'package.json': '{}', 'a.test.js': "import { it } from 'vitest';" }).tests).toEqual({ skip: expect.stringMatching(/vitest/) });
    expect(planNodeProject({ 'package.json': '{}', 'App.test.tsx': '' }).tests).toEqual({ skip: expect.stringMatching(/\.tsx/) });
    expect(planNodeProject({ 'package.json': '{}', 'index.js': '' }).tests).toEqual({ skip: expect.stringMatching(/no tests/) });
  });

  it('builds first when the start script runs build output that is not in the project', () => {
    const files = { 'package.json': pkg({ scripts: { build: 'tsc', start: 'node dist/index.js' } }), 'src/index.ts': '' };
    expect(planNodeProject(files).start).toMatchObject({ buildFirst: 'tsc', display: 'npm run build && npm start (node dist/index.js)', files: ['src/index.ts'] });
    const noBuild = { 'package.json': pkg({ scripts: { start: 'node dist/index.js' } }) };
    expect(planNodeProject(noBuild).start).toEqual({ skip: expect.stringMatching(/dist\/index\.js, which is not in the project/) });
  });

  it('starts main, else a conventional entry, with tsx for TypeScript when it is a dependency', () => {
    expect(planNodeProject({ 'package.json': pkg({ main: 'lib/app.js' }), 'lib/app.js': '' }).start).toMatchObject({ argv: ['sh', '-c', 'node lib/app.js'] });
    expect(planNodeProject({ 'package.json': pkg({ devDependencies: { tsx: '4' } }), 'src/index.ts': '' }).start).toMatchObject({ argv: ['sh', '-c', 'tsx src/index.ts'] });
    expect(planNodeProject({ 'server.js': '' }).start).toMatchObject({ argv: ['sh', '-c', 'node server.js'], files: ['server.js'] });
    expect(planNodeProject({ 'package.json': '{}', 'lib.js': '' }).start).toEqual({ skip: expect.stringMatching(/nothing to start/), nothingToStart: true });
    expect(planNodeProject({ 'package.json': pkg({ scripts: { dev: 'vite' } }), 'src/main.tsx': '' }).start).toMatchObject({ argv: ['sh', '-c', 'vite'], display: 'npm run dev (vite)' });
  });
});

describe('refuseSpec', () => {
  it('accepts registry versions, ranges, tags and npm: aliases', () => {
    for (const spec of ['1.2.3', '^4.21.0', '~1.0', '>=1 <2', '*', 'latest', '1.x', 'npm:lodash@^4', '']) expect(refuseSpec('a-b', spec, [])).toBeNull();
    expect(refuseSpec('@types/node', '^22.0.0', [])).toBeNull();
  });

  it('refuses specs that would pull host files or arbitrary code, and bad names', () => {
    for (const spec of ['file:../secret', 'file:/etc', 'link:/root', 'git+https://x/y.git', 'github:a/b', 'a/b', 'https://x/y.tgz']) {
      expect(refuseSpec('x', spec, []), spec).toMatch(/npm registry only/);
    }
    expect(refuseSpec('../evil', '1.0.0', [])).toMatch(/not a valid package name/);
  });

  it('accepts file: packages only inside an allowed folder', () => {
    expect(refuseSpec('x', 'file:/tmp/allowed/pkg', ['/tmp/allowed'])).toBeNull();
    expect(refuseSpec('x', 'file:/tmp/allowed/../other', ['/tmp/allowed'])).toMatch(/registry only/);
    expect(refuseSpec('x', 'file:/tmp/allowed-not', ['/tmp/allowed'])).toMatch(/registry only/);
  });
});
