import { describe, expect, it } from 'vitest';
import { changeCounts, changeCountsSentence, diffHeading, versionVerdictLabel } from './version-view';

describe('version view words', () => {
  it('counts a version’s files as +added ~changed −removed, and in words', () => {
    expect(changeCounts({ added: 2, changed: 10, removed: 1 })).toBe('+2 ~10 \u22121');
    expect(changeCountsSentence({ added: 2, changed: 10, removed: 1 })).toBe('2 added, 10 changed, 1 removed');
  });

  it('says a never-checked version is "Not checked", and "unproven" never as success', () => {
    expect(versionVerdictLabel(null)).toBe('Not checked');
    expect(versionVerdictLabel('unproven')).toBe('Not proven');
    expect(versionVerdictLabel('passed')).toBe('Passed');
  });

  it('heads a diff from nothing (version 1 against 0) as every file new', () => {
    expect(diffHeading(0, 1)).toBe('Version 1: every file is new');
    expect(diffHeading(3, 1)).toBe('Version 1 against version 3');
  });
});
