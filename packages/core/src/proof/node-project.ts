/**
 * What to run for a Node/TypeScript project, decided from its files alone: the install, the test
 * command and the start command. Pure, so the choices are testable without running anything.
 */

export interface PackageJson {
  name?: string;
  main?: string;
  type?: string;
  scripts?: Record<string, string>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

export interface NodeCommand {
  argv: string[];
  /** As a person would type it: `npm test (vitest run)`, `node --test test/a.test.js`. */
  display: string;
  files: string[];
  /** A shell command (the build script) that must finish before the start window opens. */
  buildFirst?: string;
  /** The command prints TAP (we added the reporter), so failures can be read one by one. */
  tap?: boolean;
}

export interface NodePlan {
  packageJson: PackageJson | null;
  dependencies: Record<string, string>;
  sourceFiles: string[];
  testFiles: string[];
  tests: NodeCommand | { skip: string };
  /** `nothingToStart`: the project has no start at all (a library), as opposed to one that cannot be tried. */
  start: NodeCommand | { skip: string; nothingToStart?: true };
}

const SOURCE = /\.(c|m)?(j|t)sx?$/;
const RUNNABLE_BY_NODE = /\.(c|m)?(j|t)s$/;
const IGNORED_DIR = /(^|\/)(node_modules|dist|build|out|coverage|\.next)\//;
const TEST_FILE = /(\.(test|spec)\.(c|m)?(j|t)sx?$)|(_test\.(c|m)?(j|t)s$)|((^|\/)(test|tests|__tests__)\/.+\.(c|m)?(j|t)sx?$)|((^|\/)test\.(c|m)?(j|t)s$)/;
const NPM_PLACEHOLDER = /no test specified/;
const CONVENTIONAL_ENTRIES = ['index', 'server', 'app', 'main', 'src/index', 'src/server', 'src/app', 'src/main'].flatMap((base) =>
  ['.js', '.mjs', '.cjs', '.ts', '.mts'].map((ext) => base + ext),
);

export function isNodeSource(path: string): boolean {
  return SOURCE.test(path) && !IGNORED_DIR.test(path) && !path.endsWith('.d.ts');
}

/** Parses package.json, or says why it cannot be read (the static checks report it in full). */
export function readPackageJson(files: Readonly<Record<string, string>>): { pkg: PackageJson | null; error?: string } {
  const raw = files['package.json'];
  if (raw === undefined) return { pkg: null };
  try {
    const value: unknown = JSON.parse(raw);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return { pkg: null, error: 'package.json is not a JSON object' };
    return { pkg: value as PackageJson };
  } catch (error) {
    return { pkg: null, error: `package.json is not valid JSON (${(error as Error).message})` };
  }
}

/** A script of package.json, when it is a non-empty string. */
export function script(pkg: PackageJson | null, name: string): string | undefined {
  const value = pkg?.scripts?.[name];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** A script with its pre/post scripts, as npm runs them; `main` replaces the script itself. */
export function withHooks(pkg: PackageJson | null, name: string, main = script(pkg, name)): string {
  return [script(pkg, `pre${name}`), main, script(pkg, `post${name}`)].filter(Boolean).join(' && ');
}

function has(deps: Record<string, string>, name: string): boolean {
  return Object.hasOwn(deps, name);
}

function planTests(pkg: PackageJson | null, deps: Record<string, string>, testFiles: string[], files: Readonly<Record<string, string>>): NodeCommand | { skip: string } {
  const test = script(pkg, 'test');
  if (test !== undefined && !NPM_PLACEHOLDER.test(test)) {
    // Our TAP reporter on a plain `node --test` gives failures one by one; the run is the same.
    const tap = /^node --test(?!.*--test-reporter)/.test(test);
    const command = withHooks(pkg, 'test', tap ? test.replace(/^node --test/, 'node --test --test-reporter=tap') : test);
    return { argv: ['sh', '-c', command], display: `npm test (${test})`, files: testFiles, tap };
  }
  if (testFiles.length === 0) return { skip: 'the project has no tests (no test script and no test files)' };
  const sources = testFiles.map((f) => files[f] ?? '');
  if (sources.some((s) => /from ['"]vitest['"]/.test(s))) {
    return has(deps, 'vitest')
      ? { argv: ['vitest', 'run'], display: 'vitest run', files: testFiles }
      : { skip: 'the tests import vitest, which package.json does not declare' };
  }
  if (has(deps, 'jest')) return { argv: ['jest'], display: 'jest', files: testFiles };
  if (has(deps, 'mocha')) return { argv: ['mocha', ...testFiles], display: `mocha ${testFiles.join(' ')}`, files: testFiles };
  const runnable = testFiles.filter((f) => RUNNABLE_BY_NODE.test(f));
  if (runnable.length === 0) return { skip: 'the test files are .jsx/.tsx, which need a test runner set up in package.json' };
  const argv = ['node', '--test', '--test-reporter=tap', ...runnable];
  return { argv, display: `node --test ${runnable.join(' ')}`, files: runnable, tap: true };
}

// `node dist/index.js`, `next start`: a start that needs the output of a build.
const BUILT_OUTPUT = /(?:^|[\s"'=])((?:\.\/)?(?:dist|build|out|lib|\.next)\/[\w./-]+\.(?:c|m)?js)\b/;
const FRAMEWORK_NEEDS_BUILD = /\b(next|nuxt|remix-serve|astro preview|vite preview)\b/;

function needsBuild(command: string, files: Readonly<Record<string, string>>): string | null {
  const output = BUILT_OUTPUT.exec(command)?.[1]?.replace(/^\.\//, '');
  if (output !== undefined && files[output] === undefined) return output;
  if (FRAMEWORK_NEEDS_BUILD.test(command) && /\b(start|preview)\b/.test(command)) return command;
  return null;
}

// The source a build output comes from, for the files a start covers: dist/app.js <- src/app.ts.
function sourceOf(output: string, files: Readonly<Record<string, string>>): string | undefined {
  const stem = output.replace(/^(dist|build|out|lib)\//, '').replace(/\.(c|m)?js$/, '');
  return ['src/', ''].flatMap((dir) => ['.ts', '.mts', '.tsx', '.js'].map((ext) => `${dir}${stem}${ext}`)).find((f) => files[f] !== undefined);
}

const NODE_ENTRY = /\bnode\s+(?:--\S+\s+)*([\w./-]+\.(?:c|m)?(?:j|t)s)\b/;

function planStart(pkg: PackageJson | null, deps: Record<string, string>, files: Readonly<Record<string, string>>): NodePlan['start'] {
  const build = script(pkg, 'build');
  const start = script(pkg, 'start');
  const dev = script(pkg, 'dev');
  const main = typeof pkg?.main === 'string' ? pkg.main.replace(/^\.\//, '') : undefined;
  let command: string;
  let display: string;
  let entry = main !== undefined && (files[main] !== undefined || (build && needsBuild(main, files))) ? main : CONVENTIONAL_ENTRIES.find((f) => files[f] !== undefined);
  if (start !== undefined) {
    command = withHooks(pkg, 'start');
    display = `npm start (${start})`;
    entry = NODE_ENTRY.exec(start)?.[1]?.replace(/^\.\//, '');
  } else if (entry !== undefined) {
    const runner = /\.(c|m)?ts$/.test(entry) && has(deps, 'tsx') ? 'tsx' : 'node';
    command = `${runner} ${entry}`;
    display = command;
  } else if (dev !== undefined) {
    // Apps made with Vite and the like have only a dev server; it starting proves its setup loads.
    command = withHooks(pkg, 'dev');
    display = `npm run dev (${dev})`;
    entry = NODE_ENTRY.exec(dev)?.[1]?.replace(/^\.\//, '');
  } else {
    return { skip: 'nothing to start: no start or dev script, no main file and no index or server file', nothingToStart: true };
  }
  const missing = needsBuild(command, files);
  if (missing !== null && build === undefined) {
    return { skip: `the start command needs ${missing}, which is not in the project and no build script makes it` };
  }
  const covered = entry === undefined ? undefined : files[entry] !== undefined ? entry : sourceOf(entry, files);
  return {
    argv: ['sh', '-c', command],
    display: missing !== null ? `npm run build && ${display}` : display,
    files: covered !== undefined ? [covered] : [],
    ...(missing !== null && build !== undefined ? { buildFirst: withHooks(pkg, 'build') } : {}),
  };
}

/** What runs for the Node part of a project. */
export function planNodeProject(files: Readonly<Record<string, string>>): NodePlan {
  const { pkg } = readPackageJson(files);
  const dependencies = { ...pkg?.dependencies, ...pkg?.devDependencies };
  const sourceFiles = Object.keys(files).filter(isNodeSource).sort();
  const testFiles = sourceFiles.filter((f) => TEST_FILE.test(f));
  return {
    packageJson: pkg,
    dependencies,
    sourceFiles,
    testFiles,
    tests: planTests(pkg, dependencies, testFiles, files),
    start: planStart(pkg, dependencies, files),
  };
}
