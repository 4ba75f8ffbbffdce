import { transform } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { SiteSourceMaps } from './source-maps.js';

const ORIGIN = 'http://project.local';
const SOURCE = 'export function total(items: number[]) {\n  const sum = items.reduce((a, b) => a + b, 0);\n  return sum.toFixed(2).padStart(missing, " ");\n}\n';

/** A built file and its map, as a bundler writes them into /tmp/site/assets for the project at /project. */
async function builtSite(): Promise<Map<string, Uint8Array>> {
  const out = await transform(SOURCE, { loader: 'ts', minify: true, sourcemap: 'external', sourcefile: '../../../project/src/total.ts' });
  const code = `${out.code}//# sourceMappingURL=index-3f2a.js.map\n`;
  return new Map([
    ['assets/index-3f2a.js', Buffer.from(code)],
    ['assets/index-3f2a.js.map', Buffer.from(out.map)],
  ]);
}

describe('SiteSourceMaps', () => {
  it('maps a built file\'s position back to the project\'s source file and line', async () => {
    const site = await builtSite();
    const code = Buffer.from(site.get('assets/index-3f2a.js')!).toString('utf8');
    const column = code.indexOf('missing') + 1;
    const maps = new SiteSourceMaps(site, ORIGIN, '/tmp/site');
    expect(maps.locate(`${ORIGIN}/assets/index-3f2a.js`, 1, column)).toEqual({ path: 'src/total.ts', line: 3, column: expect.any(Number) });
    expect(maps.mapText(`ReferenceError: missing is not defined\n    at total (${ORIGIN}/assets/index-3f2a.js:1:${column})`)).toBe(
      `ReferenceError: missing is not defined\n    at total (src/total.ts:3:${maps.locate(`${ORIGIN}/assets/index-3f2a.js`, 1, column)!.column})`,
    );
  });

  it('leaves alone what no map explains: other origins, files without a map, sources outside the project', async () => {
    const site = await builtSite();
    const maps = new SiteSourceMaps(site, ORIGIN, '/tmp/site');
    expect(maps.mapText('at x (https://cdn.example/lib.js:1:5)')).toBe('at x (https://cdn.example/lib.js:1:5)');
    const bare = new SiteSourceMaps(new Map([['assets/a.js', Buffer.from('x()')]]), ORIGIN, '/tmp/site');
    expect(bare.locate(`${ORIGIN}/assets/a.js`, 1, 1)).toBeUndefined();
    const outside = new SiteSourceMaps(site, ORIGIN, '/elsewhere/deep/down');
    expect(outside.locate(`${ORIGIN}/assets/index-3f2a.js`, 1, 1)).toBeUndefined();
  });

  it("names a package's frames in a stack as node_modules/…, but never places a problem in one", () => {
    // Vite names installed packages where they really are: outside the project folder.
    const map = JSON.stringify({ version: 3, sources: ['../../../run/deps/node_modules/react-router/dist/index.mjs', '../../../project/src/App.tsx'], names: [], mappings: 'AAAA;ACAA' });
    const maps = new SiteSourceMaps(new Map([['assets/i.js', Buffer.from('a\nb\n')], ['assets/i.js.map', Buffer.from(map)]]), ORIGIN, '/tmp/site');
    expect(maps.mapText(`at invariant (${ORIGIN}/assets/i.js:1:1)\nat App (${ORIGIN}/assets/i.js:2:1)`)).toBe('at invariant (node_modules/react-router/dist/index.mjs:1:1)\nat App (src/App.tsx:1:1)');
    expect(maps.locate(`${ORIGIN}/assets/i.js`, 1, 1)).toBeUndefined();
    expect(maps.locate(`${ORIGIN}/assets/i.js`, 2, 1)).toEqual({ path: 'src/App.tsx', line: 1, column: 1 });
  });

  it('reads webpack\'s source names', () => {
    const map = JSON.stringify({ version: 3, sources: ['webpack://app/./src/cart.js'], names: [], mappings: 'AAAA;AACA' });
    const maps = new SiteSourceMaps(new Map([['main.js', Buffer.from('a\nb\n')], ['main.js.map', Buffer.from(map)]]), ORIGIN, '/project/dist');
    expect(maps.locate(`${ORIGIN}/main.js`, 2, 1)).toEqual({ path: 'src/cart.js', line: 2, column: 1 });
  });
});
