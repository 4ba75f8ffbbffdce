/**
 * Proven Code's execution gate: runs what can be run of a generated project, in the sandbox, and
 * reports each check honestly. What runs is decided from the files, not from the idea: Node for a
 * package.json or JS/TS sources, Python for .py files, Chromium for HTML pages (loaded through
 * the project's own server when it is a Node HTTP server); a project can be several at once. Without a sandbox nothing runs and every check says why.
 */
import { Budget, skipped, type CheckContext } from './check-context.js';
import { checkNode } from './check-node.js';
import { buildSite, renderSite } from './check-bundle.js';
import { checkPages, type PageCheckOptions } from './check-page.js';
import { planBundle, type BundlePlan } from './bundle-plan.js';
import { checkPython } from './check-python.js';
import { servedPages, servesFiles, type ServerProof } from './check-server.js';
import { planServer } from './server-plan.js';
import { installOptionsFrom, type InstallOptions } from './node-deps.js';
import { isNodeSource, planNodeProject, readPackageJson, script, type NodePlan } from './node-project.js';
import { copyableFiles, withProjectCopy } from './project-copy.js';
import type { ExecCheck, ExecRuntime, ExecutionReport } from './report.js';
import { findSandbox, type Sandbox } from './sandbox.js';
import { positiveIntFromEnv, resolveLimits, type ProofEnv, type SandboxLimits } from './sandbox-limits.js';
import { supportBind } from './support-files.js';
import { runStep, type StepSink, type StepWords } from './proof-steps.js';

export interface ExecuteOptions {
  /** A sandbox found earlier; by default {@link findSandbox} is asked (once per process). */
  sandbox?: Sandbox;
  /** Proven Code's settings (WOLFPACK_SANDBOX=off, WOLFPACK_PROOF_* limits), as the server read them at start. @default {} (every default) */
  env?: ProofEnv;
  /** Per-command limits for every sandboxed command. */
  limits?: Partial<SandboxLimits>;
  /** Sandbox wall time for the whole project, all checks together (install excluded). @default 20 s (WOLFPACK_PROOF_TIME_LIMIT_MS) */
  timeLimitMs?: number;
  /** How long a start must survive to count as started. @default 3 s (WOLFPACK_PROOF_START_MS) */
  startMs?: number;
  install?: InstallOptions;
  page?: PageCheckOptions;
  signal?: AbortSignal;
  /**
   * Called when the project has to wait for a sandbox (see {@link boundedExecutor}), with how many
   * projects will start before it. executeProject itself never waits.
   */
  onWait?: (ahead: number) => void;
  /** Hears each step (install, tests, start, build, render, page loads) start and end, as feed lines. */
  onStep?: StepSink;
  /**
   * Whose project it is: {@link boundedExecutor} gives the sandboxes' turns user by user, and the
   * server counts each user's and project's sandboxes by it. executeProject itself ignores it.
   */
  owner?: SandboxOwner;
}

/** The user a sandboxed run is for, and the saved project it checks (none before a new project is saved). */
export interface SandboxOwner {
  userId: string;
  projectId?: string;
}

/** What runs a project for Proven Code: {@link executeProject} itself, or the same on a thread (`ExecutionThread.execute`). */
export type ProjectExecutor = (files: Readonly<Record<string, string>>, options?: ExecuteOptions) => Promise<ExecutionReport>;

export interface ProjectKinds {
  node: NodePlan | null;
  python: string[];
  pages: string[];
  /** A bundled web app: built, then its site rendered (its HTML alone is not the page a user sees). */
  bundle: BundlePlan | null;
  /** A Node HTTP server, proven by use once it listens: its routes asked, the pages it serves loaded through it (not in `pages`). */
  server: ServerProof | null;
}

// Pages of these projects are built by a bundler; their HTML alone is not the page a user sees.
const BUNDLERS = ['vite', 'webpack', 'parcel', 'react-scripts', 'next', 'nuxt', '@angular/cli', 'astro', 'svelte-kit', '@sveltejs/kit', 'esbuild', 'rollup'];
// Server-side templates (Jinja, EJS, Handlebars) are not pages until rendered.
const TEMPLATE = /\{\{|\{%|<%/;
const MAX_PAGES = 5;
// A start script that only serves the bundle (a dev or preview server), as opposed to a server of the app's own.
const BUNDLER_SERVER = /^(?:npx\s+)?(?:vite|next|nuxt|nuxi|astro|react-scripts|parcel|webpack(?:-dev-server)?|vue-cli-service|ng|svelte-kit|serve|http-server|live-server)\b/;

/** What kinds of project these files make, and what would run for each. */
export function projectKinds(files: Readonly<Record<string, string>>): ProjectKinds {
  const paths = Object.keys(files);
  const html = paths.filter((p) => /\.html?$/i.test(p) && !p.includes('node_modules/') && !TEMPLATE.test(files[p] ?? '')).sort();
  const { pkg } = readPackageJson(files);
  const deps = { ...pkg?.dependencies, ...pkg?.devDependencies };
  const bundled = BUNDLERS.some((name) => Object.hasOwn(deps, name));
  // Scripts next to a page are the page's, unless a package.json says the project is Node too.
  const node = files['package.json'] !== undefined || (html.length === 0 && paths.some(isNodeSource));
  const pages = bundled ? [] : [...html.filter((p) => /(^|\/)index\.html?$/i.test(p)), ...html.filter((p) => !/(^|\/)index\.html?$/i.test(p))].slice(0, MAX_PAGES);
  const bundle = bundled ? planBundle(files) : null;
  const plan = node ? planNodeProject(files) : null;
  // The build and the render replace starting a bundled app: its dev server staying up proves
  // less, and its src/main.js is a browser's entry, which Node cannot run. A start script of its
  // own that is not the bundler's server (an Express server that serves the built app) still runs.
  const start = script(pkg, 'start');
  if (bundle && plan && !('skip' in plan.start) && (start === undefined || BUNDLER_SERVER.test(start))) {
    plan.start = { skip: `the app is built with ${bundle.tool} and its page rendered instead of starting its dev server` };
  }
  const startCommand = plan && !('skip' in plan.start) ? plan.start : null;
  const server = startCommand ? planServer(files) : null;
  // A server that sends files serves the pages: opened as files, their root-relative URLs would find nothing.
  const serves = server?.runtime === 'node' && servesFiles(files);
  const proof: ServerProof | null = server?.runtime === 'node' ? { plan: server, pages: serves ? servedPages(pages) : [], buildFirst: startCommand?.buildFirst !== undefined } : null;
  return { node: plan, python: paths.filter((p) => p.endsWith('.py')).sort(), pages: serves ? [] : pages, bundle, server: proof };
}

function plannedChecks(kinds: ProjectKinds, reason: string): ExecCheck[] {
  const checks: ExecCheck[] = [];
  if (kinds.node) {
    const { tests, start } = kinds.node;
    checks.push(skipped('install', 'node', kinds.node.packageJson ? ['package.json'] : [], reason));
    checks.push(skipped('tests', 'node', 'skip' in tests ? kinds.node.testFiles : tests.files, reason));
    checks.push(skipped('start', 'node', 'skip' in start ? [] : start.files, reason));
  }
  if (kinds.python.length > 0) {
    for (const check of ['syntax', 'imports', 'tests', 'start'] as const) checks.push(skipped(check, 'python', kinds.python, reason));
  }
  for (const page of [...(kinds.server?.pages.map((p) => p.file) ?? []), ...kinds.pages]) checks.push(skipped('page-load', 'web', [page], reason));
  if (kinds.bundle) {
    const page = kinds.bundle.sourcePage ? [kinds.bundle.sourcePage] : [];
    checks.push(skipped('build', 'web', page, reason), skipped('render', 'web', page, reason));
  }
  return checks;
}

/**
 * Whether a check proves what kind of project this is: a bundled app's build and render, a static
 * page's load, the start of a Node or Python project that has something to start. When one is
 * skipped, whatever else passed, the project is not proven (see buildVerificationRecord).
 */
export function provesKind(kinds: ProjectKinds, check: ExecCheck): boolean {
  switch (check.runtime) {
    case 'web':
      return check.check === 'page-load' || (kinds.bundle !== null && (check.check === 'build' || check.check === 'render'));
    case 'node':
      // A bundled app's dev server is replaced by its build and render; a library has no start.
      if (check.check !== 'start' || kinds.node === null) return false;
      return !('skip' in kinds.node.start) || (kinds.bundle === null && kinds.node.start.nothingToStart !== true);
    case 'python':
      // Python's entry is found in the sandbox: a start with no entry names no file, it had nothing to start.
      return check.check === 'start' && check.files.length > 0;
    default: {
      const unreachable: never = check.runtime;
      return unreachable;
    }
  }
}

function markProving(kinds: ProjectKinds, checks: ExecCheck[]): ExecCheck[] {
  return checks.map((c) => (provesKind(kinds, c) ? { ...c, proves: true } : c));
}

function runtimesOf(kinds: ProjectKinds): ExecRuntime[] {
  return [...(kinds.node ? ['node' as const] : []), ...(kinds.python.length ? ['python' as const] : []), ...(kinds.pages.length || kinds.server?.pages.length || kinds.bundle ? ['web' as const] : [])];
}

/**
 * Runs the project's install, tests, start and page loads in the sandbox and reports each check.
 * Never throws for anything the project does; a missing sandbox gives `executed: false` with
 * "not executed: no sandbox on this server (…)" and nothing is run, not even the install.
 */
export async function executeProject(allFiles: Readonly<Record<string, string>>, options: ExecuteOptions = {}): Promise<ExecutionReport> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const env = options.env ?? {};
  const { files } = copyableFiles(allFiles);
  const kinds = projectKinds(files);
  const runtimes = runtimesOf(kinds);
  if (runtimes.length === 0) {
    return { executed: false, notExecutedReason: 'not executed: nothing in the project can be run (no Node, Python or HTML files)', runtimes, checks: [], durationMs: elapsed() };
  }
  const found = options.sandbox ? { sandbox: options.sandbox } : await findSandbox({ env, ...(options.limits ? { limits: options.limits } : {}) });
  if (!('sandbox' in found)) {
    const reason = `not executed: no sandbox on this server (${found.unavailable})`;
    return { executed: false, notExecutedReason: reason, runtimes, checks: markProving(kinds, plannedChecks(kinds, reason)), durationMs: elapsed() };
  }
  const { sandbox } = found;
  const timeLimitMs = options.timeLimitMs ?? positiveIntFromEnv(env, 'WOLFPACK_PROOF_TIME_LIMIT_MS') ?? 20_000;
  let nodeModules: string | undefined;
  const startMs = options.startMs ?? positiveIntFromEnv(env, 'WOLFPACK_PROOF_START_MS') ?? 3000;
  const checks = await withProjectCopy(files, async (dir) => {
    const ctx: CheckContext = {
      sandbox,
      dir,
      files,
      paths: new Set(Object.keys(files)),
      budget: new Budget(timeLimitMs),
      binds: [supportBind()],
      startMs,
      commandMs: resolveLimits(options.limits, env).wallMs,
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.onStep ? { step: options.onStep } : {}),
    };
    const out: ExecCheck[] = [];
    if (kinds.node) {
      const server = kinds.server ? { proof: kinds.server, ...(options.page ? { page: options.page } : {}) } : undefined;
      const node = await checkNode(ctx, kinds.node, options.install ?? installOptionsFrom(env), server);
      out.push(...node.checks);
      nodeModules = node.nodeModules;
    }
    if (kinds.python.length > 0) out.push(...(await runStep(ctx, pythonWords(kinds.python.length), () => checkPython(ctx, kinds.python), (c) => c)));
    if (kinds.pages.length > 0) out.push(...(await runStep(ctx, pagesWords(kinds.pages), () => checkPages(ctx, kinds.pages, options.page), (c) => c)));
    if (kinds.bundle) out.push(...(await checkBundle(ctx, kinds.bundle, nodeModules, options)));
    return out;
  });
  return {
    executed: true,
    sandbox: sandbox.kind,
    ...(sandbox.notes.length ? { sandboxNotes: sandbox.notes } : {}),
    runtimes,
    checks: markProving(kinds, checks),
    durationMs: elapsed(),
    ...(nodeModules ? { nodeModules } : {}),
  };
}

/** The build and the render of a bundled app, with the dependencies the Node checks installed. */
async function checkBundle(ctx: CheckContext, plan: BundlePlan, nodeModules: string | undefined, options: ExecuteOptions): Promise<ExecCheck[]> {
  // Without its dependencies nothing is built: no step to show, only the skipped check.
  const build = () => buildSite(ctx, plan, nodeModules);
  const built = nodeModules === undefined ? await build() : await runStep(ctx, buildWords(plan.tool), build, (b) => [b.check]);
  if (!built.site) {
    const reason = built.check.status === 'failed' ? `the ${plan.tool} build failed, so there was no page to render` : (built.check.reason ?? 'the app was not built');
    return [built.check, skipped('render', 'web', built.check.files, reason)];
  }
  const site = built.site;
  return [built.check, await runStep(ctx, RENDER_WORDS, () => renderSite(ctx, plan, site, options.page), (c) => [c])];
}

function buildWords(tool: string): StepWords {
  return { running: `Building the app with ${tool}`, passed: `Built the app with ${tool}`, noun: 'Build' };
}

const RENDER_WORDS: StepWords = { running: 'Rendering the built page in Chromium', passed: 'Rendered the built page', noun: 'Render' };

function pagesWords(pages: readonly string[]): StepWords {
  const what = pages.length === 1 ? pages[0]! : `${pages.length} pages`;
  return { running: `Loading ${what} in Chromium`, passed: `Loaded ${what}`, noun: `Loading ${what}` };
}

function pythonWords(files: number): StepWords {
  const what = files === 1 ? '1 Python file' : `${files} Python files`;
  return { running: `Checking ${what} (syntax, imports, tests, start)`, passed: `Checked ${what}`, noun: `Checking ${what}` };
}
