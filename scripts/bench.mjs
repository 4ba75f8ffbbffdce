// `pnpm bench`: runs every packages/*/bench/*.bench.ts in turn; `pnpm bench ledger stream` only
// those whose file name contains one of the words. Each benchmark measures its candidates side by
// side in one run and prints a table of ratios (never a pass/fail on time). Benchmarks that need
// PostgreSQL (ledger) say so in one line and skip when it is not reachable.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const only = process.argv.slice(2);
const files = [];
for (const pkg of readdirSync('packages')) {
  const dir = join('packages', pkg, 'bench');
  if (!existsSync(dir)) continue;
  for (const f of readdirSync(dir).filter((f) => f.endsWith('.bench.ts')).sort()) {
    if (only.length === 0 || only.some((o) => f.includes(o))) files.push({ pkg: join('packages', pkg), file: join('bench', f) });
  }
}
if (files.length === 0) {
  console.log('No benchmarks yet: add packages/<pkg>/bench/<name>.bench.ts.');
  process.exit(0);
}
// tsx from the repository root, so every package's benchmarks run whatever its own devDependencies.
const tsx = import.meta.resolve('tsx');
let failed = false;
for (const { pkg, file } of files) {
  console.log(`\n## ${join(pkg, file)}`);
  // Run from the package so its own dependencies resolve.
  const r = spawnSync(process.execPath, ['--conditions=@wolfpack/source', '--import', tsx, file], { stdio: 'inherit', cwd: pkg });
  if (r.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
