import { describe, expect, it } from 'vitest';
import { failedTapTests, testCounts } from './test-output.js';
import { bestLocation, trimOutput } from './output.js';
import { environmentGap } from './start-verdict.js';

// Node 24's TAP for one file that did not load and one failed assertion (trimmed from a real run).
const TAP = `TAP version 13
# file:///project/test/broken.test.js:1
# import { nope } from '../src/sum.js';
#          ^^^^
# SyntaxError: The requested module '../src/sum.js' does not provide an export named 'nope'
# Node.js v24.21.0
# Subtest: test/broken.test.js
not ok 1 - test/broken.test.js
  ---
  duration_ms: 94.07
  location: '/project/test/broken.test.js:1:1'
  failureType: 'testCodeFailure'
  error: 'test failed'
  code: 'ERR_TEST_FAILURE'
  ...
# Subtest: adds
not ok 2 - adds
  ---
  location: '/project/test/sum.test.js:4:1'
  failureType: 'testCodeFailure'
  error: |-
    Expected values to be strictly equal:

    undefined !== 3

  stack: |-
    TestContext.<anonymous> (file:///project/test/sum.test.js:5:10)
    Test.run (node:internal/test_runner/test:1402:25)
  ...
# Subtest: ok
ok 3 - ok
1..3
# tests 3
# pass 1
# fail 2
`;

describe('failedTapTests', () => {
  it('reads each failure with its location, error and stack, and a file that did not load with its stderr', () => {
    const [broken, adds] = failedTapTests(TAP);
    expect(broken).toMatchObject({ name: 'test/broken.test.js', location: { file: '/project/test/broken.test.js', line: 1 }, error: expect.stringMatching(/^SyntaxError: .* export named 'nope'/) });
    expect(broken!.detail).toContain("import { nope } from '../src/sum.js';");
    expect(adds).toMatchObject({ name: 'adds', location: { file: '/project/test/sum.test.js', line: 4 }, error: 'Expected values to be strictly equal: undefined !== 3' });
    expect(bestLocation(adds!.detail, new Set(['test/sum.test.js']), 'first')).toEqual({ path: 'test/sum.test.js', line: 5 });
  });
});

describe('testCounts', () => {
  it('reads the summary of node --test, Jest, Vitest, Mocha and pytest', () => {
    expect(testCounts(TAP)).toEqual({ passed: 1, failed: 2 });
    expect(testCounts('ℹ tests 4\nℹ suites 0\nℹ pass 4\nℹ fail 0\n')).toEqual({ passed: 4, failed: 0 });
    expect(testCounts('Tests:       1 failed, 2 passed, 3 total')).toEqual({ passed: 2, failed: 1 });
    expect(testCounts('      Tests  1 failed | 2 passed (3)')).toEqual({ passed: 2, failed: 1 });
    expect(testCounts('  2 passing (5ms)\n  1 failing\n')).toEqual({ passed: 2, failed: 1 });
    expect(testCounts('===== 1 failed, 2 passed in 0.12s =====')).toEqual({ passed: 2, failed: 1 });
    expect(testCounts('nothing here')).toBeUndefined();
  });
});

describe('trimOutput and bestLocation', () => {
  it('drops runtime frames and colour, shows paths relative to the project, and cuts the middle', () => {
    const out = trimOutput('\u001b[31mError: x\u001b[39m\n    at f (/project/src/a.js:3:5)\n    at Module._compile (node:internal/modules/cjs/loader:1:1)\n');
    expect(out).toBe('Error: x\n    at f (src/a.js:3:5)');
    const long = trimOutput('a'.repeat(5000), 2000);
    expect(long.length).toBeLessThanOrEqual(2000);
    expect(long).toContain('characters cut');
  });

  it("finds Node's first frame, Python's last, and tsc's relative paths, in project files only", () => {
    const files = new Set(['src/a.js', 'a.py', 'b.py', 'src/x.ts']);
    expect(bestLocation('at g (/project/node_modules/lib/i.js:1:1)\nat f (/project/src/a.js:3:5)', files, 'first')).toEqual({ path: 'src/a.js', line: 3 });
    expect(bestLocation('File "/project/a.py", line 9, in <module>\nFile "/project/b.py", line 2, in f', files, 'last')).toEqual({ path: 'b.py', line: 2 });
    expect(bestLocation('src/x.ts(7,3): error TS2322: nope', files, 'first')).toEqual({ path: 'src/x.ts', line: 7 });
  });
});

describe('environmentGap', () => {
  it('names what the sandbox lacked: a service, a setting, a native build', () => {
    expect(environmentGap('Error: connect ECONNREFUSED 127.0.0.1:5432\n    at TCPConnectWrap')).toMatch(/a service at 127\.0\.0\.1:5432/);
    expect(environmentGap('psycopg2.OperationalError: connection to server at "localhost" (127.0.0.1), port 5432 failed: Connection refused')).toMatch(/at port 5432/);
    expect(environmentGap('Error: OPENAI_API_KEY is required')).toMatch(/the setting OPENAI_API_KEY/);
    expect(environmentGap('Missing environment variable: DATABASE_URL')).toMatch(/DATABASE_URL/);
    expect(environmentGap("Error: Could not locate the bindings file. Tried:\n → /project/node_modules/bcrypt/build/bcrypt_lib.node")).toMatch(/package bcrypt needs its native build/);
  });

  it('leaves real failures alone', () => {
    expect(environmentGap("TypeError: Cannot read properties of undefined (reading 'port')")).toBeUndefined();
    expect(environmentGap('ReferenceError: API is not defined')).toBeUndefined();
    expect(environmentGap('AssertionError: 3.0 != 2')).toBeUndefined();
  });
});
