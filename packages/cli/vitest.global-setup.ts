/**
 * The integration tests run the built `wolfpack` binary, as people do, so build it first: core and
 * server (the binary imports their dist at run time; `serve` loads the server) and then the CLI.
 * tsc takes about a second each, the CLI's bundle (scripts/bundle.mjs) less.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';

const cliDir = fileURLToPath(new URL('.', import.meta.url));
const coreDir = fileURLToPath(new URL('../core/', import.meta.url));
const serverDir = fileURLToPath(new URL('../server/', import.meta.url));
const tsc = fileURLToPath(new URL('node_modules/.bin/tsc', import.meta.url));

/** Runs tsc; returns its complaints, or undefined when it had none. tsc emits even when it complains. */
function build(dir: string): string | undefined {
  try {
    execFileSync(tsc, ['-p', 'tsconfig.build.json'], { cwd: dir, stdio: 'pipe', encoding: 'utf8' });
    return undefined;
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    return `${stdout}${stderr}`.trim() || String(error);
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // npm test has just built every package (WOLFPACK_TEST_BUILT=1); run alone, the tests build.
  if (process.env.WOLFPACK_TEST_BUILT !== '1') buildAll();
  // Server tests of their own start from a copy of one migrated database (see copyPgliteTemplate).
  const { createDatabaseTemplates } = await import('@wolfpack/server/testing');
  const templates = await createDatabaseTemplates({ postgres: false });
  project.provide('pgliteTemplateDir', templates.pgliteTemplateDir);
  return () => templates.dispose();
}

function buildAll(): void {
  // Their type errors are their own checks' business; the JS they emit is what the binary runs,
  // and a real break shows up as a failing CLI test anyway.
  for (const [name, dir] of [['core', coreDir], ['server', serverDir]] as const) {
    const errors = build(dir);
    if (errors !== undefined) console.warn(`[cli tests] packages/${name} built with type errors:\n${errors}`);
  }
  // The CLI type-checks against core's and server's sources too; only its own errors stop the tests.
  const cliErrors = build(cliDir)?.split('\n') ?? [];
  const own = cliErrors.filter((line) => line.startsWith('src/'));
  if (own.length > 0) throw new Error(`Building the CLI for its tests failed:\n${own.join('\n')}`);
  if (cliErrors.length > 0) console.warn(`[cli tests] the CLI built with type errors in other packages:\n${cliErrors.join('\n')}`);
  // dist/bin.js is the bundle people install (scripts/bundle.mjs), not one of tsc's files.
  execFileSync(process.execPath, [fileURLToPath(new URL('scripts/bundle.mjs', import.meta.url))], { cwd: cliDir, stdio: 'pipe' });
}
