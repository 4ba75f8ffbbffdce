/**
 * How a bundled web app (Vite, webpack, Parcel, esbuild, Rollup, Astro, SvelteKit, Next's static
 * export, Create React App) is built here, decided from its files alone. Pure, so the choices are
 * testable without running anything; check-bundle.ts runs the plan in the sandbox.
 *
 * The build is the project's own `build` script, as `npm run build` runs it: a `tsc -b` in front
 * of `vite build` type-checks with the project's tsconfig and the declarations it installed, and
 * fails the build as it fails for the user. Only without a build script is the bundler run
 * directly. The site is the first of the bundler's usual output folders that has an index.html;
 * a Vite app's `vite build` is pointed at {@link SITE_DIR}, with source maps and its URLs from the
 * root (a preview has an origin of its own, as the render's page has: a `base` meant for a
 * sub-path, GitHub Pages', would leave both without their assets).
 *
 * A production build strips what a person needs to fix a crash: React Router's "useNavigate() may
 * be used only in the context of a <Router> component" becomes "Error" at
 * assets/index-3f2a.js:49:360. So a Vite app's page is rendered from a second, development build
 * (NODE_ENV=development: React and its libraries keep their messages; not minified; source maps
 * name src/App.tsx:8), made in the same sandbox run right after the project's own build.
 */
import { readPackageJson, script, withHooks, type PackageJson } from './node-project.js';

/** Where the built site is written inside the sandbox, when we choose (Vite). */
export const SITE_DIR = '/tmp/wolfpack-site';

/** The development build a page is rendered from (see the module comment). */
export interface RenderBuild {
  /** Shell command run in the project folder, after the project's build; writes {@link SITE_DIR}. */
  command: string;
  /** As a person would type it. */
  display: string;
  env: Record<string, string>;
}

export interface BundlePlan {
  /** The bundler, as the record names it: "built with vite". */
  tool: string;
  /** Shell command run in the project folder. */
  command: string;
  /** As a person would type it in the project folder. */
  display: string;
  /** Where the site is afterwards: one absolute folder, or folders of the project to look in, in order. */
  outDirs: string[];
  /** Environment for the build (production mode; Create React App's relative URLs). */
  env: Record<string, string>;
  /** The page whose mount element must not stay empty (the source index.html, when there is one). */
  sourcePage: string | undefined;
  /**
   * The project's `vite build` runs through a stand-in `vite` first on PATH, which sends its site
   * to {@link SITE_DIR} with `--base /` and source maps (check-bundle.ts writes it).
   */
  viteOutput?: boolean;
  /** A development build of the same app for the render check, when the bundler can make one (Vite). */
  renderBuild?: RenderBuild;
}

// Frameworks on top of Vite that write their own output: they run their own build.
const VITE_FRAMEWORKS = ['@sveltejs/kit', 'astro', 'nuxt', '@remix-run/dev', '@react-router/dev', 'vitepress', '@analogjs/platform', 'solid-start', '@solidjs/start', '@tanstack/start', '@tanstack/react-start'];
// Bundlers that need the project's own build script, with the folders their sites usually land in.
const OTHER_BUNDLERS: Array<{ dep: string; tool: string; outDirs: string[] }> = [
  { dep: '@sveltejs/kit', tool: 'sveltekit', outDirs: ['build'] },
  { dep: 'astro', tool: 'astro', outDirs: ['dist'] },
  { dep: 'next', tool: 'next', outDirs: ['out'] },
  { dep: 'react-scripts', tool: 'react-scripts', outDirs: ['build'] },
  { dep: 'parcel', tool: 'parcel', outDirs: ['dist'] },
  { dep: 'webpack', tool: 'webpack', outDirs: ['dist', 'build', 'public'] },
  { dep: 'rollup', tool: 'rollup', outDirs: ['dist', 'public', 'build'] },
  { dep: 'esbuild', tool: 'esbuild', outDirs: ['dist', 'public', 'build', 'out'] },
];
// Not public/: it is where webpack and Create React App keep their source page.
const USUAL_OUT_DIRS = ['dist', 'build', 'out'];
// What a build script needs beside it to be a site build: a tool that makes pages.
const NEEDS_PAGE = /\.html?$/i;

function has(pkg: PackageJson | null, name: string): boolean {
  return Object.hasOwn({ ...pkg?.dependencies, ...pkg?.devDependencies }, name);
}

/** The source page the app mounts into: index.html at the root, else the only one under src/ or public/. */
function sourcePage(files: Readonly<Record<string, string>>): string | undefined {
  if (files['index.html'] !== undefined) return 'index.html';
  return ['src/index.html', 'public/index.html'].find((p) => files[p] !== undefined);
}

/**
 * The build of a bundled web app, or null when the project is not one (no bundler among its
 * dependencies, or a bundler with nothing to build into pages: a library, a server bundle).
 */
export function planBundle(files: Readonly<Record<string, string>>): BundlePlan | null {
  const { pkg } = readPackageJson(files);
  if (!pkg) return null;
  const page = sourcePage(files);
  const build = script(pkg, 'build');
  const env = { NODE_ENV: 'production' };
  if (has(pkg, 'vite') && !VITE_FRAMEWORKS.some((name) => has(pkg, name))) {
    // No page, no site: Vite in library mode or for a server only.
    if (page === undefined && !Object.keys(files).some((p) => NEEDS_PAGE.test(p))) return null;
    // npm is not in the sandbox: the script runs as npm would run it, with its pre and post scripts.
    const own = build === undefined ? { command: 'vite build', display: 'vite build' } : { command: withHooks(pkg, 'build'), display: `npm run build (${build})` };
    const renderBuild: RenderBuild = {
      command: `vite build --minify false --sourcemap --base / --outDir ${SITE_DIR} --emptyOutDir`,
      display: 'NODE_ENV=development vite build --minify false --sourcemap',
      env: { NODE_ENV: 'development' },
    };
    // Vite 8's bundler (rolldown) with its default worker threads ran out of the sandbox's address
    // space: a React Router app failed 5 builds in 6 ("memory allocation of 6403512 bytes
    // failed"), and built 10 in 10 with two workers.
    const viteEnv = { ...env, ROLLDOWN_WORKER_THREADS: '2' };
    // The usual folders after SITE_DIR: a build script may call Vite's JS API instead of its command.
    return { tool: 'vite', ...own, outDirs: [SITE_DIR, ...USUAL_OUT_DIRS], env: viteEnv, sourcePage: page, viteOutput: true, renderBuild };
  }
  for (const bundler of OTHER_BUNDLERS) {
    if (!has(pkg, bundler.dep) || build === undefined) continue;
    if (bundler.tool === 'next' && !/output\s*:\s*['"]export['"]/.test(Object.entries(files).find(([p]) => /^next\.config\.(m?js|ts)$/.test(p))?.[1] ?? '')) {
      return null; // a Next app that is not a static export needs its server: the start check runs it
    }
    if (!['sveltekit', 'astro', 'next'].includes(bundler.tool) && page === undefined && !Object.keys(files).some((p) => NEEDS_PAGE.test(p))) return null;
    const outDirs = [...bundler.outDirs, ...USUAL_OUT_DIRS.filter((d) => !bundler.outDirs.includes(d))];
    // Create React App: relative asset URLs, so the site works under a preview link's path;
    // warnings are not errors here (CI=true would make them so).
    const extra: Record<string, string> = bundler.tool === 'react-scripts' ? { PUBLIC_URL: '.', GENERATE_SOURCEMAP: 'true' } : {};
    // npm is not in the sandbox: the script runs as npm would run it, with its pre and post scripts.
    return { tool: bundler.tool, command: withHooks(pkg, 'build'), display: `npm run build (${build})`, outDirs, env: { ...env, ...extra }, sourcePage: page };
  }
  return null;
}
