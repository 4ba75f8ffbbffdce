/**
 * Whether a project is an HTTP server, and how to start it for its preview: decided from its files
 * alone (pure), like the rest of the plans. A Node project is one when its start command runs a
 * server framework (express, koa, fastify, hapi, hono, …) or an entry that makes an `http` server;
 * a Python project when an entry module imports a web framework or the standard library's server.
 */
import { shellQuote } from './bwrap-args.js';
import { planNodeProject } from './node-project.js';

export interface ServerPlan {
  runtime: 'node' | 'python';
  /** The shell command that starts it, in the project folder (a build first, when it needs one). */
  command: string;
  /** As a person would type it: `npm start (node server.js)`, `python3 app.py`. */
  display: string;
  /** The file it starts from, for problems whose output names none (package.json when unknown). */
  entry: string;
  /** Node: what to install (dependencies and devDependencies). Python: none can be installed here. */
  dependencies: Record<string, string>;
  /** Node runs its TypeScript sources (type stripping and the resolve hook). */
  typescript: boolean;
  /** What makes it a server, for people: `express`, `node:http`, `flask`. */
  framework: string;
}

/** Packages whose presence says "this project serves HTTP" (each listens when the app says so). */
const NODE_SERVER_PACKAGES = ['express', 'koa', 'fastify', '@hapi/hapi', 'hono', '@hono/node-server', 'restify', 'polka', '@nestjs/core', 'h3', 'connect'];
/** An entry that makes a server with Node's own http or https module. */
const NODE_HTTP_IMPORT = /(?:from\s+|import\s*\(\s*|require\s*\(\s*)['"](?:node:)?https?['"]/;
const NODE_HTTP_SERVER = /\bcreateServer\s*\(/;
const TEST_OR_CONFIG = /(\.(test|spec)\.[cm]?[jt]sx?$)|(^|\/)(test|tests|__tests__)\/|\.config\.[cm]?[jt]s$/;

function nodeServer(files: Readonly<Record<string, string>>): ServerPlan | null {
  if (files['package.json'] === undefined && !Object.keys(files).some((f) => /\.[cm]?[jt]s$/.test(f))) return null;
  const plan = planNodeProject(files);
  if ('skip' in plan.start) return null;
  const start = plan.start;
  const framework = NODE_SERVER_PACKAGES.find((name) => Object.hasOwn(plan.dependencies, name));
  const entry = start.files[0];
  // The entry when the start command names one; else every source, as a script may start anything.
  const sources = entry !== undefined ? [entry] : plan.sourceFiles.filter((f) => !TEST_OR_CONFIG.test(f));
  const http = sources.some((f) => NODE_HTTP_IMPORT.test(files[f] ?? '') && NODE_HTTP_SERVER.test(files[f] ?? ''));
  if (framework === undefined && !http) return null;
  const shell = start.argv[2] ?? start.argv.join(' ');
  return {
    runtime: 'node',
    command: start.buildFirst ? `${start.buildFirst} && ${shell}` : shell,
    display: start.display,
    entry: entry ?? 'package.json',
    dependencies: plan.dependencies,
    typescript: plan.sourceFiles.some((f) => /\.[cm]?tsx?$/.test(f)),
    framework: framework ?? 'node:http',
  };
}

const PYTHON_ENTRIES = ['app.py', 'main.py', 'server.py', 'run.py', 'wsgi.py', 'asgi.py', 'api.py', '__main__.py'];
const PYTHON_FRAMEWORK = /^\s*(?:from|import)\s+(flask|fastapi|bottle|aiohttp|tornado|starlette|http\.server|wsgiref|socketserver)\b/m;
const MAIN_GUARD = /^if\s+__name__\s*==\s*['"]__main__['"]\s*:/m;

/** The module path of a .py file for `-m` and `module:app` (src/app.py -> src.app). */
const moduleOf = (path: string) => shellQuote(path.replace(/\.py$/, '').replaceAll('/', '.'));

function pythonServer(files: Readonly<Record<string, string>>): ServerPlan | null {
  const python = Object.keys(files).filter((f) => f.endsWith('.py') && !/(^|\/)(tests?\/|test_[^/]*$|[^/]*_test\.py$)/.test(f));
  const byFramework = (f: string) => PYTHON_FRAMEWORK.exec(files[f] ?? '')?.[1];
  const ordered = [...PYTHON_ENTRIES.filter((f) => python.includes(f)), ...python.filter((f) => !f.includes('/')).sort(), ...python.filter((f) => f.includes('/')).sort()];
  const candidates = ordered.filter((f) => byFramework(f) !== undefined);
  const entry =
    candidates.find((f) => MAIN_GUARD.test(files[f] ?? '')) ??
    candidates.find((f) => PYTHON_ENTRIES.includes(f)) ??
    candidates.find((f) => /\b(Flask|FastAPI)\s*\(/.test(files[f] ?? ''));
  if (entry === undefined) return null;
  const framework = byFramework(entry)!;
  const source = files[entry] ?? '';
  let command: string;
  if (framework === 'flask' && !MAIN_GUARD.test(source)) {
    command = `python3 -m flask --app ${moduleOf(entry)} run --host 127.0.0.1 --port "$PORT"`;
  } else if (framework === 'fastapi' && !MAIN_GUARD.test(source)) {
    const app = /^(\w+)\s*=\s*FastAPI\s*\(/m.exec(source)?.[1] ?? 'app';
    command = `python3 -m uvicorn ${moduleOf(entry)}:${app} --host 127.0.0.1 --port "$PORT"`;
  } else {
    // A package's __main__.py runs as `python3 -m package`, so its relative imports work.
    command = entry.endsWith('/__main__.py') ? `python3 -m ${moduleOf(entry.slice(0, -'/__main__.py'.length))}` : `python3 ${shellQuote(entry)}`;
  }
  return { runtime: 'python', command, display: command.replace('"$PORT"', '$PORT'), entry, dependencies: {}, typescript: false, framework };
}

/** How to start the project as an HTTP server for its preview, or null when it is not one. */
export function planServer(files: Readonly<Record<string, string>>): ServerPlan | null {
  return nodeServer(files) ?? pythonServer(files);
}
