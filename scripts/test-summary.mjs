// The closing summary of `npm test`, from vitest's JSON reports (one per suite) and the suites'
// wall times (timings.json from run-suites.mjs): each suite's time and counts, the slowest test
// files, and every skipped test by name. `node scripts/test-summary.mjs DIR` prints it again.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const SLOWEST = 15;
const root = fileURLToPath(new URL('..', import.meta.url));
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

/** Prints the summary; false when a suite failed, crashed, or ran no test (unless `allowEmpty`). */
export function summarize(dir, { allowEmpty = false } = {}) {
  const timings = existsSync(join(dir, 'timings.json')) ? JSON.parse(readFileSync(join(dir, 'timings.json'), 'utf8')) : { suites: {} };
  const names = [...new Set([...Object.keys(timings.suites), ...readdirSync(dir).filter((f) => f.endsWith('.json') && f !== 'timings.json').map((f) => f.slice(0, -5))])];
  let ok = names.length > 0;
  const totals = { passed: 0, failed: 0, skipped: 0 };
  const files = [];
  const skippedTests = [];
  const rows = [];
  for (const name of names) {
    const reportFile = join(dir, `${name}.json`);
    const timing = timings.suites[name];
    if (!existsSync(reportFile)) {
      rows.push(`${name.padEnd(10)} ${timing ? seconds(timing.ms).padStart(8) : ''}  no report: the suite crashed before it finished (its output is above)`);
      ok = false;
      continue;
    }
    const report = JSON.parse(readFileSync(reportFile, 'utf8'));
    const passed = report.numPassedTests ?? 0;
    // Failed tests, and files that failed without a failed test (one that did not load, a hook):
    // vitest's numFailedTestSuites also counts each failing test's file and describe blocks.
    const brokenFiles = (report.testResults ?? []).filter((f) => f.status === 'failed' && !(f.assertionResults ?? []).some((t) => t.status === 'failed'));
    const failed = (report.numFailedTests ?? 0) + brokenFiles.length;
    const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
    if (failed > 0 || (passed === 0 && !allowEmpty) || (timing && timing.code !== 0)) ok = false;
    totals.passed += passed;
    totals.failed += failed;
    totals.skipped += skipped;
    const wall = timing ? seconds(timing.ms) : '?';
    rows.push(`${name.padEnd(10)} ${wall.padStart(8)}  ${String(passed).padStart(4)} passed ${String(failed).padStart(3)} failed ${String(skipped).padStart(3)} skipped`);
    for (const file of report.testResults ?? []) {
      files.push({ name: relative(root, file.name), ms: (file.endTime ?? 0) - (file.startTime ?? 0), suite: name });
      for (const test of file.assertionResults ?? []) {
        if (test.status === 'pending' || test.status === 'skipped' || test.status === 'todo') {
          skippedTests.push(`${relative(root, file.name)} > ${test.fullName ?? test.title}`);
        }
      }
    }
  }
  console.log('\n== Summary');
  console.log(`suite      wall time`);
  console.log(rows.join('\n'));
  if (timings.wallMs) console.log(`all suites: ${seconds(timings.wallMs)} wall time, ${timings.lanes} at a time`);
  console.log(`\nThe ${SLOWEST} slowest test files:`);
  for (const f of files.sort((a, b) => b.ms - a.ms).slice(0, SLOWEST)) console.log(`${seconds(f.ms).padStart(8)}  ${f.name}`);
  if (skippedTests.length > 0) {
    // Each skip printed its reason in its suite's output ("[skipped] …").
    console.log(`\nSkipped (${skippedTests.length}; the reasons are in the suites' output, lines starting "[skipped]"):`);
    for (const t of skippedTests) console.log(`  ${t}`);
  }
  console.log(`\n${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
  return ok;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  process.exit(summarize(process.argv[2]) ? 0 : 1);
}
