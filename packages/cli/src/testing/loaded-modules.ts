/**
 * What the `wolfpack` binary loads, for tests that keep its start fast. The binary is a bundle
 * (scripts/bundle.mjs): Node resolves its files, and `dist/bundle-inputs.json` says what each was
 * made from, so a test can name the packages and sources a command loaded.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const DIST = new URL('../../dist/', import.meta.url);

/** Preloaded in the binary's process: prints every file URL Node resolves, as "[loaded URL]" on stderr. */
const HOOK = `
import { registerHooks } from 'node:module';
registerHooks({
  resolve(specifier, context, next) {
    const resolved = next(specifier, context);
    process.stderr.write('[loaded ' + resolved.url + ']\\n');
    return resolved;
  },
});
`;

/** NODE_OPTIONS for the binary's process that make it print what it loads. */
export const PRINT_LOADED = `--import=data:text/javascript;base64,${Buffer.from(HOOK).toString('base64')}`;

/**
 * What the bundle's files the process loaded were made from (packages by name, the workspace's
 * files by their path, such as "packages/core/src/errors.ts"), from the stderr of a process run
 * with {@link PRINT_LOADED}. Throws when it loaded none of the bundle, so an empty answer never
 * passes for a lean one.
 */
export function loadedFrom(stderr: string): string[] {
  const inputs = JSON.parse(readFileSync(new URL('bundle-inputs.json', DIST), 'utf8')) as Record<string, string[]>;
  const dist = fileURLToPath(DIST);
  const files = [...stderr.matchAll(/^\[loaded file:\/\/(\/.+)\]$/gm)].map((m) => decodeURIComponent(m[1]!)).filter((path) => path.startsWith(dist));
  if (files.length === 0) throw new Error(`The process loaded nothing from ${dist}; its stderr:\n${stderr}`);
  return [
    ...new Set(
      files.flatMap((path) => {
        const from = inputs[path.slice(dist.length)];
        if (!from) throw new Error(`dist/bundle-inputs.json does not list ${path}: run \`pnpm --filter @wolfpack/cli build\`.`);
        return from;
      }),
    ),
  ].sort();
}
