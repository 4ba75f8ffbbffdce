import { describe, expect, it } from 'vitest';
import { chooseIterationMode, isLightRequest, LIGHT_MAX_INSTRUCTION_CHARS, LIGHT_MAX_TOTAL_BYTES } from './consensus-mode.js';
import { ballotFor, parseVote, pickWinner, voteMessages } from './vote.js';

describe('parseVote', () => {
  const letters = ['A', 'B', 'C'];
  it.each([
    ['VOTE: B', 'B'],
    ['I prefer the second.\n**VOTE: C**', 'C'],
    ['vote = a', 'A'],
    ['VOTE: Proposal B', 'B'],
    ['B', 'B'],
    ['(C).', 'C'],
    ['A looks wrong. VOTE: D then VOTE: B', 'B'],
    ['VOTE: D', null],
    ['No opinion.', null],
    ['', null],
  ])('%j → %s', (reply, expected) => {
    expect(parseVote(reply, letters)).toBe(expected);
  });
});

describe('ballotFor', () => {
  it('letters every candidate once, in an order the random source decides', () => {
    const patches = ['p0', 'p1', 'p2'];
    const first = ballotFor(patches, () => 0);
    const second = ballotFor(patches, () => 0.99);
    for (const ballot of [first, second]) {
      expect(ballot.map((b) => b.letter)).toEqual(['A', 'B', 'C']);
      expect(ballot.map((b) => b.candidate).sort()).toEqual([0, 1, 2]);
      for (const b of ballot) expect(b.patch).toBe(`p${b.candidate}`);
    }
    expect(first.map((b) => b.candidate)).not.toEqual(second.map((b) => b.candidate));
  });

  it('never shows who proposed what', () => {
    const [, user] = voteMessages('Do it.', ballotFor(['--- a/x\n+++ b/x\n'], () => 0), 100);
    expect(user?.content).not.toMatch(/Engine \d/);
  });
});

describe('pickWinner', () => {
  const entries = [
    { candidate: 0, changedLines: 10 },
    { candidate: 1, changedLines: 4 },
    { candidate: 2, changedLines: 4 },
  ];
  it('takes the most votes, then fewer changed lines, then the earlier candidate', () => {
    expect(pickWinner(entries, new Map([[0, 2], [1, 1]]))).toBe(0);
    expect(pickWinner(entries, new Map([[0, 1], [2, 1]]))).toBe(2);
    expect(pickWinner(entries, new Map())).toBe(1);
  });
});

describe('chooseIterationMode', () => {
  const small = { 'a.ts': 'x'.repeat(100) };
  it('keeps explicit modes', () => {
    expect(chooseIterationMode(small, 'x', 'consensus')).toBe('consensus');
    expect(chooseIterationMode({ 'a.ts': 'x'.repeat(LIGHT_MAX_TOTAL_BYTES * 2) }, 'x', 'single')).toBe('single');
  });
  it('sends light requests to one engine and the rest to consensus', () => {
    expect(chooseIterationMode(small, 'Rename x.')).toBe('single');
    expect(isLightRequest({ 'a.ts': 'x'.repeat(LIGHT_MAX_TOTAL_BYTES) }, 'x')).toBe(true);
    expect(isLightRequest({ 'a.ts': 'é'.repeat(LIGHT_MAX_TOTAL_BYTES / 2 + 1) }, 'x')).toBe(false);
    expect(isLightRequest({ a: '', b: '', c: '', d: '' }, 'x')).toBe(false);
    expect(isLightRequest(small, 'x'.repeat(LIGHT_MAX_INSTRUCTION_CHARS + 1))).toBe(false);
  });
});
