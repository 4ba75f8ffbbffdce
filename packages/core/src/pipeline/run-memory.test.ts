import { describe, expect, it } from 'vitest';
import { emptyMemory, isReplacedVersion, markReplaced, problemKey, regressions, remember, snapshotMemory } from './run-memory.js';
import type { VerifyProblem } from './verify.js';

const p = (path: string, message: string, line?: number): VerifyProblem => ({ path, check: 'imports', message, ...(line === undefined ? {} : { line }) });

describe('run memory', () => {
  it('knows a problem again when only its line or the list of importing files changed', () => {
    expect(problemKey(p('a.js', "'./x' is missing", 3))).toBe(problemKey(p('a.js', "'./x' is missing", 9)));
    expect(problemKey(p('package.json', "'chalk' is imported (in a.js) but not declared"))).toBe(
      problemKey(p('package.json', "'chalk' is imported (in a.js and 2 more file(s)) but not declared")),
    );
    expect(problemKey(p('a.js', 'x'))).not.toBe(problemKey(p('b.js', 'x')));
  });

  it('calls a problem a regression when an earlier version had it and the current one does not', () => {
    const memory = emptyMemory();
    remember(memory, { problems: [p('a.js', 'old'), p('b.js', 'still')] });
    const before = { problems: [p('b.js', 'still')] };
    const after = { problems: [p('a.js', 'old', 40), p('b.js', 'still'), p('c.js', 'new')] };
    // b.js is not fixed yet, c.js is new: only a.js came back.
    expect(regressions(memory, before, after)).toEqual([p('a.js', 'old', 40)]);
  });

  it('remembers replaced versions by content, per path, and survives a JSON round trip', () => {
    const memory = emptyMemory();
    markReplaced(memory, 'a.js', 'broken');
    const copy = JSON.parse(JSON.stringify(snapshotMemory(memory))) as typeof memory;
    expect(isReplacedVersion(copy, 'a.js', 'broken')).toBe(true);
    expect(isReplacedVersion(copy, 'a.js', 'fixed')).toBe(false);
    expect(isReplacedVersion(copy, 'b.js', 'broken')).toBe(false);
  });
});
