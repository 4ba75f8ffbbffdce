import { describe, expect, it } from 'vitest';
import {
  capsuleEventLabel,
  capsuleMetricFigures,
  capsuleShareUrl,
  capsuleTotals,
  capsuleUrl,
  capsuleVerdictLabel,
  formatCapsuleCost,
  formatCapsuleDuration,
  formatCount,
  isEnhancedStep,
  linkedInShareUrl,
  modelVoteList,
  twitterShareUrl,
} from './capsule-format';

describe('capsule metric formats (companion §9)', () => {
  it('shows cost as totalCost / 100 with 3 decimals', () => {
    expect(formatCapsuleCost(0)).toBe('$0.000');
    expect(formatCapsuleCost(4.2)).toBe('$0.042');
    expect(formatCapsuleCost(1234)).toBe('$12.340');
    expect(formatCapsuleCost(0.05)).toBe('$0.001');
    expect(formatCapsuleCost(Number.NaN)).toBe('$0.000');
  });

  it('shows duration as ms / 1000 with 1 decimal', () => {
    expect(formatCapsuleDuration(0)).toBe('0.0s');
    expect(formatCapsuleDuration(12_345)).toBe('12.3s');
    expect(formatCapsuleDuration(999)).toBe('1.0s');
    expect(formatCapsuleDuration(61_000)).toBe('61.0s');
  });

  it('groups counts and splits model votes', () => {
    expect(formatCount(12345)).toBe('12,345');
    expect(modelVoteList(' alpha, beta,,gamma ')).toEqual(['alpha', 'beta', 'gamma']);
    expect(modelVoteList('')).toEqual([]);
    expect(modelVoteList(null)).toEqual([]);
    expect(
      capsuleMetricFigures({ totalDuration: 4500, totalTokens: 2048, totalCost: 12.5, modelVotes: 'a,b', consensusScore: 0.5, outputLength: 10 }),
    ).toEqual({ duration: '4.5s', tokens: '2,048', cost: '$0.125', models: ['a', 'b'] });
  });

  it('states the recorded Proven Code verdict, and says when none was recorded', () => {
    expect(capsuleVerdictLabel('passed')).toBe('Passed');
    expect(capsuleVerdictLabel('failed')).toBe('Failed');
    expect(capsuleVerdictLabel('unproven')).toBe('Not proven');
    expect(capsuleVerdictLabel(undefined)).toBe('Not recorded');
  });

  it('labels every event type', () => {
    expect(capsuleEventLabel('prompt_received')).toBe('Prompt received');
    expect(capsuleEventLabel('session_complete')).toBe('Session complete');
  });
});

describe('capsule share URLs', () => {
  it('builds the public URL, with ?ref= only when there is a code', () => {
    expect(capsuleUrl('https://wolf.example/', 'todo-app-abc')).toBe('https://wolf.example/capsules/todo-app-abc');
    expect(capsuleShareUrl('https://wolf.example', 'todo-app-abc', 'WPAB12CD')).toBe('https://wolf.example/capsules/todo-app-abc?ref=WPAB12CD');
    expect(capsuleShareUrl('https://wolf.example', 'todo-app-abc', null)).toBe('https://wolf.example/capsules/todo-app-abc');
    expect(capsuleShareUrl('https://wolf.example', 'todo-app-abc', '  ')).toBe('https://wolf.example/capsules/todo-app-abc');
    expect(capsuleUrl('http://x', 'a b/c')).toBe('http://x/capsules/a%20b%2Fc');
  });

  it('encodes the Twitter intent parameters', () => {
    const link = twitterShareUrl('Check out "A & B" #1', 'https://wolf.example/capsules/s?ref=WPAB12CD');
    const parsed = new URL(link);
    expect(parsed.origin + parsed.pathname).toBe('https://twitter.com/intent/tweet');
    expect(parsed.searchParams.get('text')).toBe('Check out "A & B" #1');
    expect(parsed.searchParams.get('url')).toBe('https://wolf.example/capsules/s?ref=WPAB12CD');
    // The capsule URL's own ? and = must not leak into Twitter's query string.
    expect(link).not.toContain('?ref=');
    expect(link).toContain('%3Fref%3DWPAB12CD');
  });

  it('encodes the LinkedIn share-offsite URL', () => {
    const link = linkedInShareUrl('https://wolf.example/capsules/s?ref=WPAB12CD&x=1');
    expect(link).toBe('https://www.linkedin.com/sharing/share-offsite/?url=https%3A%2F%2Fwolf.example%2Fcapsules%2Fs%3Fref%3DWPAB12CD%26x%3D1');
    expect(new URL(link).searchParams.get('url')).toBe('https://wolf.example/capsules/s?ref=WPAB12CD&x=1');
  });
});

describe('capsuleTotals', () => {
  it('sums views and shares and counts public and private capsules', () => {
    expect(
      capsuleTotals([
        { viewCount: 3, shareCount: 1, isPublic: true },
        { viewCount: 0, shareCount: 2, isPublic: false },
        { viewCount: 10, shareCount: 0, isPublic: false },
      ]),
    ).toEqual({ count: 3, views: 13, shares: 3, publicCount: 1, privateCount: 2 });
    expect(capsuleTotals([])).toEqual({ count: 0, views: 0, shares: 0, publicCount: 0, privateCount: 0 });
  });
});

describe('isEnhancedStep: "Enhanced" only on steps that enhanced the prompt', () => {
  const event = (eventType: Parameters<typeof isEnhancedStep>[0]['eventType'], enhanced: boolean | string | undefined) => ({ eventType, data: { enhanced } });

  it('marks a pass that refined the prompt and the refined prompt chosen', () => {
    expect(isEnhancedStep(event('model_enhanced', true))).toBe(true);
    expect(isEnhancedStep(event('enhancement_selected', 'true'))).toBe(true);
  });

  it('does not mark a skipped pass, an unused enhancement, or a build without one', () => {
    expect(isEnhancedStep(event('model_enhanced', false))).toBe(false);
    expect(isEnhancedStep(event('enhancement_selected', 'false'))).toBe(false);
    expect(isEnhancedStep(event('prompt_received', undefined))).toBe(false);
  });

  it('never marks code or completion steps, whatever their flag says (a stage that finished, a gate that passed)', () => {
    expect(isEnhancedStep(event('code_refined', true))).toBe(false);
    expect(isEnhancedStep(event('session_complete', true))).toBe(false);
    expect(isEnhancedStep(event('code_refined', 'true'))).toBe(false);
  });
});
