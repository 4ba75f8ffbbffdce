/**
 * What "Open Preview" shows for a project, and the sandboxed build behind it: a static site as it
 * is, a bundled app as its build (the same build Proven Code runs: dependencies installed
 * outside the sandbox with scripts off, the bundler inside it with no network), an HTTP server
 * as the server itself (started by the server's preview-server support). The build's site is
 * returned whole, for the caller to cache per project version.
 */
import { Budget, type CheckContext } from './check-context.js';
import { buildSite, type BuiltSite } from './check-bundle.js';
import { planBundle, type BundlePlan } from './bundle-plan.js';
import { installDependencies, installOptionsFrom, type InstallOptions } from './node-deps.js';
import { readPackageJson } from './node-project.js';
import { copyableFiles, withProjectCopy } from './project-copy.js';
import type { ExecProblem } from './report.js';
import { findSandbox, type Sandbox } from './sandbox.js';
import { positiveIntFromEnv, resolveLimits, type ProofEnv } from './sandbox-limits.js';
import { planServer, type ServerPlan } from './server-plan.js';
import { supportBind } from './support-files.js';

export type PreviewPlan =
  /** Its files as they are. */
  | { kind: 'static' }
  | { kind: 'bundled'; plan: BundlePlan }
  /** An HTTP server, run in the sandbox and reached through the link (see preview-server.ts). */
  | { kind: 'server'; plan: ServerPlan }
  | { kind: 'none'; reason: string };

// Their HTML is a bundler's input, not a page a browser can show as it is.
const BUNDLERS = ['vite', 'webpack', 'parcel', 'react-scripts', 'next', 'nuxt', 'astro', '@sveltejs/kit', 'esbuild', 'rollup', '@angular/cli'];

/** What the preview of these files is. */
export function planPreview(files: Readonly<Record<string, string>>): PreviewPlan {
  const safe = copyableFiles(files).files;
  const bundle = planBundle(safe);
  if (bundle) return { kind: 'bundled', plan: bundle };
  // A site with its own index.html is shown as it is, whatever else the project has.
  const server = safe['index.html'] === undefined ? planServer(safe) : null;
  if (server) return { kind: 'server', plan: server };
  const { pkg } = readPackageJson(safe);
  const deps = { ...pkg?.dependencies, ...pkg?.devDependencies };
  const bundler = BUNDLERS.find((d) => Object.hasOwn(deps, d));
  if (bundler) return { kind: 'none', reason: `This project is built with ${bundler}, whose build here makes no static page (it needs its own server, or has no build script), so there is no page to show.` };
  return { kind: 'static' };
}

/** A step of a preview build, for the "Building preview…" page. */
export type PreviewStep = 'installing' | 'building';

export interface PreviewBuildOptions {
  sandbox?: Sandbox;
  /** Proven Code's settings (WOLFPACK_SANDBOX, WOLFPACK_PROOF_* limits), as the server read them at start. @default {} (every default) */
  env?: ProofEnv;
  install?: InstallOptions;
  /** Sandbox time for the build. @default 60 s (WOLFPACK_PREVIEW_BUILD_TIME_LIMIT_MS) */
  timeLimitMs?: number;
  onStep?: (step: PreviewStep) => void;
  signal?: AbortSignal;
}

export type PreviewBuild =
  | { ok: true; site: BuiltSite; command: string }
  /** The build failed: the project's fault, shown with its problem and Repair again. */
  | { ok: false; problem: ExecProblem; command: string }
  /** It could not be tried here (no sandbox, dependencies that cannot be installed, no time): not the project's fault. */
  | { ok: false; unavailable: string };

/** Builds a bundled app's site in the sandbox, as Proven Code does. */
export async function buildPreview(allFiles: Readonly<Record<string, string>>, plan: BundlePlan, options: PreviewBuildOptions = {}): Promise<PreviewBuild> {
  const env = options.env ?? {};
  const { files } = copyableFiles(allFiles);
  const found = options.sandbox ? { sandbox: options.sandbox } : await findSandbox({ env });
  if (!('sandbox' in found)) return { ok: false, unavailable: `no sandbox on this server (${found.unavailable}), so generated code is not run` };
  const { pkg } = readPackageJson(files);
  options.onStep?.('installing');
  const installed = await installDependencies({ ...pkg?.dependencies, ...pkg?.devDependencies }, options.install ?? installOptionsFrom(env));
  if (installed.status === 'failed') return { ok: false, problem: { path: 'package.json', message: installed.message, command: installed.command, ...(installed.output ? { output: installed.output } : {}) }, command: installed.command };
  if (installed.status === 'none') return { ok: false, unavailable: 'package.json declares no dependencies, so there is no bundler to build with' };
  options.onStep?.('building');
  const timeLimitMs = options.timeLimitMs ?? positiveIntFromEnv(env, 'WOLFPACK_PREVIEW_BUILD_TIME_LIMIT_MS') ?? 60_000;
  const built = await withProjectCopy(files, (dir) => {
    const ctx: CheckContext = {
      sandbox: found.sandbox,
      dir,
      files,
      paths: new Set(Object.keys(files)),
      budget: new Budget(timeLimitMs),
      binds: [supportBind()],
      startMs: 0,
      commandMs: resolveLimits({}, env).wallMs,
      ...(options.signal ? { signal: options.signal } : {}),
    };
    // The project's own build, as users are shown it; not the development build a render check loads.
    return buildSite(ctx, plan, installed.nodeModules, { purpose: 'preview' });
  });
  if (built.site) return { ok: true, site: built.site, command: plan.display };
  const problem = built.check.problems[0];
  if (built.check.status === 'failed' && problem) return { ok: false, problem, command: plan.display };
  return { ok: false, unavailable: built.check.reason ?? 'the app could not be built here' };
}
