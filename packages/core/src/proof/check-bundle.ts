/**
 * A bundled web app, built and rendered: the build runs in the sandbox with the installed
 * dependencies (no network), and its site is loaded in Chromium in the sandbox. A build error is
 * a problem at the file and line the bundler names; a crash while rendering, at the source line
 * the build's source maps give; an app that mounts nothing leaves its root empty, and says so.
 *
 * The site comes out of the sandbox as a tar stream on stdout (base64, so it travels as text),
 * bounded by the command's output limit: the build writes nothing to the host's disk.
 */
import { posix } from 'node:path';
import { parseTar } from 'nanotar';
import { checkResult, plural, sandboxFailed, skipped, type CheckContext } from './check-context.js';
import { loadPage, ORIGIN, pageCheck, pageWall, withSandboxedBrowser, type PageCheckOptions, type PageSite } from './check-page.js';
import { SITE_DIR, type BundlePlan } from './bundle-plan.js';
import { SANDBOX_PROJECT_DIR } from './bwrap-args.js';
import { combinedOutput, errorLine, limitSentence, problemFromRun, withoutColours } from './output.js';
import type { ExecCheck } from './report.js';
import type { SandboxResult } from './sandbox.js';
import { SiteSourceMaps } from './source-maps.js';

/** A build gets up to this much of the project's time budget. */
const BUILD_WALL_MS = 30_000;
/** The site and the build's log together, base64-encoded: a site past ~45 MB is not a generated app's. */
const BUILD_OUTPUT_BYTES = 64 * 1024 * 1024;
const SITE_MARK = '@@wolfpack-site:';
/** Printed between the project's build and the development build: what follows is the latter's. */
const RENDER_MARK = '@@wolfpack-render-build@@';
const SHIM_DIR = '/tmp/wolfpack-bin';

/**
 * The `vite` the project's build script finds first on PATH: `vite build` writes its site where
 * the site is collected, with URLs from the root (where a preview serves it) and source maps,
 * whatever output folder or base the project chose; every other vite command, and an SSR build,
 * runs as the project wrote it. Vite's own command line then runs in the same process.
 */
export const viteShim = (vite = `${SANDBOX_PROJECT_DIR}/node_modules/vite/bin/vite.js`) => `#!/usr/bin/env node
const vite = '${vite}';
const args = process.argv.slice(2);
const ours = /^--(outDir|base|sourcemap|emptyOutDir)(=|$)/;
if (args[0] === 'build' && !args.some((a) => /^--ssr(=|$)/.test(a))) {
  const kept = [];
  for (let i = 1; i < args.length; i += 1) {
    const flag = ours.exec(args[i]);
    if (!flag) kept.push(args[i]);
    else if (flag[2] === '' && (flag[1] === 'outDir' || flag[1] === 'base' || /^(true|false|inline|hidden)$/.test(args[i + 1] ?? ''))) i += 1;
  }
  args.splice(0, args.length, 'build', ...kept, '--outDir', '${SITE_DIR}', '--emptyOutDir', '--base', '/', '--sourcemap');
}
process.argv = [process.argv[0], vite, ...args];
import(vite);
`;

/** A built site: its files by path (relative to its root), and where it was built in the sandbox. */
export interface BuiltSite {
  tool: string;
  files: Map<string, Uint8Array>;
  /** Absolute, inside the sandbox: what the source maps' relative sources are relative to. */
  dir: string;
  /** The project's files the build's source maps name (what the build covered). */
  sources: string[];
  /** The build the site comes from, as a person would type it. */
  builtBy: string;
}

export interface BuildSiteOptions {
  /**
   * `render`: the site the render check loads, the plan's development build when it has one (the
   * project's own build still runs first, and its failure is the build's). `preview`: the site
   * of the project's own build, as users are shown it. @default 'render'
   */
  purpose?: 'render' | 'preview';
}

/** The shell that builds, then writes the site as base64 tar on stdout (the builds' own output goes to stderr). */
function buildShell(plan: BundlePlan, render: boolean): string {
  const pack = 'tar -cf - . | base64 -w0';
  const lines: string[] = [];
  if (plan.viteOutput) lines.push(`mkdir -p ${SHIM_DIR} && cat > ${SHIM_DIR}/vite <<'WOLFPACK_SHIM'\n${viteShim()}WOLFPACK_SHIM`, `chmod +x ${SHIM_DIR}/vite`);
  lines.push(`( ${plan.viteOutput ? `PATH=${SHIM_DIR}:$PATH; ` : ''}${plan.command}\n) >&2 || exit $?`);
  if (render && plan.renderBuild) {
    const env = Object.entries(plan.renderBuild.env).map(([k, v]) => `export ${k}='${v}'; `).join('');
    lines.push(`echo '${RENDER_MARK}' >&2`, `( ${env}${plan.renderBuild.command} ) >&2 || exit $?`, `echo '${SITE_MARK}${SITE_DIR}@@' >&2 && cd ${SITE_DIR} && ${pack}`);
    return lines.join('\n');
  }
  lines.push(
    `for d in ${plan.outDirs.join(' ')}; do if [ -f "$d/index.html" ]; then case $d in /*) p=$d;; *) p=${SANDBOX_PROJECT_DIR}/$d;; esac; echo "${SITE_MARK}$p@@" >&2; cd "$d" && ${pack}; exit $?; fi; done`,
    `echo "the build finished but wrote no index.html into ${plan.outDirs.filter((d) => !d.startsWith('/')).join(', ')}" >&2`,
    'exit 3',
  );
  return lines.join('\n');
}

function readSite(base64: string): Map<string, Uint8Array> {
  const files = new Map<string, Uint8Array>();
  for (const item of parseTar(Buffer.from(base64, 'base64'))) {
    if (item.type !== 'file' || item.data === undefined) continue;
    const path = posix.normalize(item.name).replace(/^(\.\/)+/, '');
    if (path === '' || path.startsWith('../')) continue;
    files.set(path, item.data);
  }
  return files;
}

/** Project files the site's source maps name: what the build really covered. */
function mappedSources(files: ReadonlyMap<string, Uint8Array>, dir: string, paths: ReadonlySet<string>): string[] {
  const found = new Set<string>();
  for (const [path, data] of files) {
    if (!path.endsWith('.map')) continue;
    try {
      const map = JSON.parse(Buffer.from(data).toString('utf8')) as { sources?: unknown; sourceRoot?: unknown };
      const root = typeof map.sourceRoot === 'string' ? map.sourceRoot : '';
      for (const source of Array.isArray(map.sources) ? map.sources : []) {
        if (typeof source !== 'string') continue;
        const absolute = posix.resolve(posix.dirname(posix.join(dir, path)), root, source.replace(/^webpack:\/\/[^/]*\/(?:\.\/)?/, `${SANDBOX_PROJECT_DIR}/`));
        const relative = absolute.startsWith(`${SANDBOX_PROJECT_DIR}/`) ? absolute.slice(SANDBOX_PROJECT_DIR.length + 1) : undefined;
        if (relative !== undefined && paths.has(relative)) found.add(relative);
      }
    } catch {
      // a map that does not parse names nothing
    }
  }
  return [...found].sort();
}

// The line of a bundler's report that says what is wrong: rolldown's `[MISSING_EXPORT] …`,
// esbuild's `✘ [ERROR] …`, webpack's `Module not found: …`, Vite's plugins' `[vite:css] …`, tsc's `error TS2304: …`.
const BUNDLER_ERROR = /^\s*(?:\[[A-Z][A-Z_]+\]\s|✘ \[ERROR\]\s|\[vite:[\w-]+\]\s|\[plugin:[\w:-]+\]\s|Module not found:|Module parse failed:|SyntaxError:|Error:\s|ERROR:\s)|\berror TS\d+:/;

/** Exit statuses of a shell whose command died by SIGABRT, SIGBUS or SIGSEGV (128 + the signal). */
const CRASH_STATUSES = new Set([134, 135, 139]);

/** The bundler died by a crash signal on its own, with no error of the project's in its output. */
export function bundlerCrashed(result: SandboxResult): boolean {
  if (result.stopped !== undefined || result.setupError !== undefined) return false;
  const crashed = CRASH_STATUSES.has(result.exitCode ?? 0) || ['SIGABRT', 'SIGBUS', 'SIGSEGV'].includes(result.signal ?? '');
  return crashed && bundlerErrorLine(result.stderr) === undefined;
}

/** The first line of a bundler's output that reports an error, if any. */
function bundlerErrorLine(output: string): string | undefined {
  return withoutColours(output)
    .split('\n')
    .find((line) => BUNDLER_ERROR.test(line));
}

/** What a failed build says is wrong, in one line. */
export function buildErrorLine(output: string): string {
  const line = bundlerErrorLine(output);
  return line ? line.replace(/^\s*(?:✘\s*|Error:\s*)/, '').trim().slice(0, 300) : errorLine(output);
}

const kilobytes = (files: ReadonlyMap<string, Uint8Array>) => Math.round([...files.values()].reduce((n, f) => n + f.length, 0) / 1024);

/** What a failed build's log says, as the problem's message: a tsc error of the build script by its code. */
function failureMessage(plan: BundlePlan, why: string): string {
  const tsc = /\berror (TS\d+):\s*(.*)$/.exec(why);
  return tsc ? `tsc failed in the build: ${tsc[1]}: ${tsc[2]}` : `the ${plan.tool} build failed: ${why}`;
}

/**
 * Runs the build in the sandbox. Passed with the site, failed with the bundler's (or the build
 * script's tsc's) error at its file and line, or skipped when it could not run here (no installed
 * dependencies, no time left). For a render, a plan's development build runs after the project's
 * own, in the same sandbox run, and its site is the one returned.
 */
export async function buildSite(ctx: CheckContext, plan: BundlePlan, nodeModules: string | undefined, options: BuildSiteOptions = {}): Promise<{ check: ExecCheck; site?: BuiltSite }> {
  const covered = plan.sourcePage ? [plan.sourcePage] : [];
  if (nodeModules === undefined) return { check: skipped('build', 'web', covered, `the dependencies were not installed, so the app could not be built with ${plan.tool}`) };
  const renderBuild = (options.purpose ?? 'render') === 'render' ? plan.renderBuild : undefined;
  const build = (wallMs: number) =>
    ctx.sandbox.run(ctx.dir, {
      argv: ['sh', '-c', buildShell(plan, renderBuild !== undefined)],
      env: plan.env,
      readOnlyBinds: ctx.binds,
      nodeModules,
      // Bundlers work on several threads: CPU time is what the wall clock allows, not the default,
      // and the sandbox's share two cores' worth (with one, a build took 30-40 % longer here).
      limits: { wallMs, outputBytes: BUILD_OUTPUT_BYTES, cpuSeconds: Math.ceil((wallMs * 2) / 1000), sandboxCpuPercent: 200 },
      // A correct app's build took 6 s on a quiet machine and ran past 30 s on one loaded by other
      // work: the time its processes waited for a CPU is given back, as for a start.
      extendWhenStarved: true,
      ...(ctx.signal ? { signal: ctx.signal } : {}),
    });
  let wall = ctx.budget.wallFor(BUILD_WALL_MS);
  if (wall === 0) return { check: skipped('build', 'web', covered, ctx.budget.spentReason()) };
  let result = await build(wall);
  // A bundler that crashed by itself (a native abort, seen once from Vite's bundler on a busy
  // machine) says nothing about the code: built once more rather than reported, since a problem
  // would send the project to a repair round the user pays for. A second crash is reported.
  if (bundlerCrashed(result)) {
    wall = ctx.budget.wallFor(BUILD_WALL_MS);
    if (wall > 0) result = await build(wall);
  }
  const setup = sandboxFailed('build', 'web', covered, result);
  if (setup) return { check: setup };
  const base = { files: covered, command: plan.display, durationMs: result.durationMs };
  const fallbackPath = plan.sourcePage ?? 'package.json';
  if (result.stopped === 'time' && wall < BUILD_WALL_MS) return { check: skipped('build', 'web', covered, ctx.budget.spentReason()) };
  if (result.stopped !== undefined || result.exitCode !== 0) {
    // The builds' own output is on stderr; stdout is the site, which there is none of. Past the
    // mark, the project's build passed and the development build is the one that failed.
    const mark = renderBuild ? result.stderr.indexOf(RENDER_MARK) : -1;
    const log = { ...result, stdout: '', stderr: mark < 0 ? result.stderr : result.stderr.slice(mark + RENDER_MARK.length) };
    const command = mark < 0 || !renderBuild ? plan.display : renderBuild.display;
    const why = limitSentence(result, wall) ?? buildErrorLine(combinedOutput(log));
    const problem = problemFromRun(log, { files: ctx.paths, fallbackPath, order: 'first', message: failureMessage(plan, why), command });
    return { check: checkResult('build', 'web', { ...base, status: 'failed', problems: [problem] }) };
  }
  const dir = new RegExp(`${SITE_MARK}(.+?)@@`).exec(result.stderr)?.[1] ?? SITE_DIR;
  let files: Map<string, Uint8Array>;
  try {
    files = readSite(result.stdout.trim());
  } catch (error) {
    return { check: skipped('build', 'web', covered, `the built site could not be read back from the sandbox (${(error as Error).message})`) };
  }
  const sources = mappedSources(files, dir, ctx.paths);
  const built = [...new Set([...covered, ...sources])].sort();
  const what = renderBuild ? `built with ${plan.tool}, and again in development mode for the render` : `built with ${plan.tool}`;
  const summary = `${what}: ${plural(files.size, 'file')}, ${kilobytes(files)} KB${sources.length === 0 ? ' (no source maps: errors name the built files)' : ''}`;
  const site: BuiltSite = { tool: plan.tool, files, dir, sources, builtBy: renderBuild?.display ?? plan.display };
  return { check: checkResult('build', 'web', { ...base, files: built, status: 'passed', summary }), site };
}

/** The element an app mounts into: the first empty element with an id in the page's body (`<div id="root"></div>`). */
export function mountSelector(html: string | undefined): string | undefined {
  if (html === undefined) return undefined;
  const body = html.slice(Math.max(0, html.search(/<body[\s>]/i)));
  const empty = /<(div|main|section|app|span)\b[^>]*\bid\s*=\s*["']([\w-]+)["'][^>]*>\s*<\/\1>/i.exec(body);
  return empty ? `#${empty[2]}` : undefined;
}

/** Loads the built site's index.html in Chromium in the sandbox: one `render` check. */
export async function renderSite(ctx: CheckContext, plan: BundlePlan, site: BuiltSite, options: PageCheckOptions = {}): Promise<ExecCheck> {
  const maps = new SiteSourceMaps(site.files, ORIGIN, site.dir);
  const built = site.files.get('index.html');
  const page: PageSite = {
    read: (path) => site.files.get(path),
    paths: ctx.paths,
    mapStack: (text) => maps.mapText(text),
    locate: (url, line, column) => maps.locate(url, line, column),
    ...(() => {
      const selector = mountSelector(plan.sourcePage ? ctx.files[plan.sourcePage] : undefined) ?? mountSelector(built ? Buffer.from(built).toString('utf8') : undefined);
      return selector ? { mountSelector: selector } : {};
    })(),
  };
  const covered = [...new Set([...(plan.sourcePage ? [plan.sourcePage] : []), ...site.sources])].sort();
  if (!built) return checkResult('render', 'web', { files: covered, status: 'failed', durationMs: 0, problems: [{ path: plan.sourcePage ?? 'package.json', message: `the ${plan.tool} build wrote no index.html, so there is no page to open` }] });
  const result = await withSandboxedBrowser(ctx, options, async (browser, started) => {
    const wall = pageWall(ctx);
    if (wall === 0) return skipped('render', 'web', covered, ctx.budget.spentReason());
    const found = await loadPage(browser, page, 'index.html', wall, plan.sourcePage ?? 'index.html');
    // A load cut short because the project's time budget ran out (the builds before took it)
    // says nothing about the app: a problem would send a correct app to a paid repair.
    const cutShort = found.missing.length === 0 && found.errors.length > 0 && found.errors.every((e) => /^the page did not finish loading: .*Timeout/.test(e.message));
    if (cutShort && ctx.budget.wallFor(1) === 0) return skipped('render', 'web', covered, ctx.budget.spentReason());
    const base = { files: covered, command: `open index.html of ${site.builtBy} in Chromium`, durationMs: Math.round(performance.now() - started) };
    return pageCheck('render', found, base, 'page rendered: 1 route, no errors (clicks and other interactions are not exercised)');
  });
  return 'unavailable' in result ? skipped('render', 'web', covered, result.unavailable) : result;
}
