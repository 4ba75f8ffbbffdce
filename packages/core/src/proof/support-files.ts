/**
 * Files the proof itself brings into the sandbox (read-only at {@link SUPPORT_DIR}): the Python
 * analysers and a Node resolve hook for TypeScript sources. Written once per process.
 */
import type { ReadOnlyBind } from './bwrap-args.js';
import { PY_ANALYZE, PY_RUN_TESTS } from './python-scripts.js';
import { contentDir } from './content-dir.js';

export const SUPPORT_DIR = '/opt/wolfpack';

/**
 * TypeScript sources import their siblings as `./util.js` (what tsc emits) or without an
 * extension (bundler resolution). Node's type stripping runs the source, where `util.js` does not
 * exist yet, so a correct project would fail to start. For importers that are TypeScript only,
 * a failed relative import is retried with the TypeScript file it names; plain JavaScript keeps
 * Node's rules, so a real missing-extension bug there is still reported.
 */
const TS_RESOLVE_HOOK = `import { registerHooks } from 'node:module';
const TS = /\\.[cm]?tsx?$/;
const SWAP = { '.js': ['.ts', '.tsx'], '.mjs': ['.mts'], '.cjs': ['.cts'], '.jsx': ['.tsx'] };
registerHooks({
  resolve(specifier, context, nextResolve) {
    try {
      return nextResolve(specifier, context);
    } catch (error) {
      if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !TS.test(context.parentURL ?? '') || !/^(\\.|\\/|file:)/.test(specifier)) throw error;
      const ext = /\\.[cm]?jsx?$/.exec(specifier)?.[0];
      const candidates = ext ? SWAP[ext].map((e) => specifier.slice(0, -ext.length) + e) : ['.ts', '.tsx', '.js', '/index.ts', '/index.js'].map((e) => specifier + e);
      for (const candidate of candidates) {
        try {
          return nextResolve(candidate, context);
        } catch {}
      }
      throw error;
    }
  },
});
`;

const FILES: Record<string, string> = {
  'ts-resolve.mjs': TS_RESOLVE_HOOK,
  'analyze.py': PY_ANALYZE,
  'run_tests.py': PY_RUN_TESTS,
};

/** Node options for projects with TypeScript: enums and namespaces too, and the resolve hook. */
export const TYPESCRIPT_NODE_OPTIONS = `--experimental-transform-types --disable-warning=ExperimentalWarning --import ${SUPPORT_DIR}/ts-resolve.mjs`;

let bind: ReadOnlyBind | null = null;

/** The support folder, written on first use, as a bind for sandbox runs. */
export function supportBind(): ReadOnlyBind {
  if (bind !== null) return bind;
  bind = { source: contentDir('wolfpack-sandbox-support', FILES), target: SUPPORT_DIR };
  return bind;
}
