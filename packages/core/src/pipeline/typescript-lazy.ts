/**
 * The TypeScript compiler (`typescript-checker`), loaded on first use. Loading it takes about half
 * a second, which every process importing the pipeline (the server, `wolfpack serve`) would
 * otherwise pay at start-up even if it never checks a type.
 */
import { createRequire } from 'node:module';
import type TS from 'typescript-checker';

let loaded: typeof TS | undefined;
const load = (): typeof TS => (loaded ??= createRequire(import.meta.url)('typescript-checker') as typeof TS);

/** Use like the module itself (`ts.createProgram(…)`); the first property read loads it. */
export const ts: typeof TS = new Proxy({} as typeof TS, {
  get: (_target, key) => Reflect.get(load(), key),
});
