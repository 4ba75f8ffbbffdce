/**
 * The real TypeScript compiler with its two costly entry points counted, for tests of the type
 * check: whether a check was served from the cache, and which files it parsed, is then a fact to
 * assert rather than a time to guess at. In a test file:
 *
 *   vi.mock('./typescript-lazy.js', async (importOriginal) =>
 *     (await import('./testing/counted-compiler.js')).countedCompiler(importOriginal));
 *
 * and read {@link compiler} (one object for the whole test file: the mock and the test share this module).
 */
type TypescriptLazy = typeof import('../typescript-lazy.js');

/** What the real compiler was asked to do: programs built and files parsed (by file name). */
export const compiler = { programs: 0, parsed: [] as string[] };

export function resetCompilerCounts(): void {
  compiler.programs = 0;
  compiler.parsed = [];
}

/** The module `typescript-lazy.js` stands for, with `createProgram` and `createSourceFile` counted. */
export async function countedCompiler(importOriginal: <T>() => Promise<T>): Promise<TypescriptLazy> {
  const original = await importOriginal<TypescriptLazy>();
  const { ts } = original;
  const counted = {
    createProgram: (...args: Parameters<typeof ts.createProgram>) => {
      compiler.programs++;
      return ts.createProgram(...args);
    },
    createSourceFile: (...args: Parameters<typeof ts.createSourceFile>) => {
      compiler.parsed.push(args[0]);
      return ts.createSourceFile(...args);
    },
  };
  return { ...original, ts: new Proxy({} as typeof ts, { get: (_target, key) => (key in counted ? counted[key as keyof typeof counted] : Reflect.get(ts, key)) }) };
}
