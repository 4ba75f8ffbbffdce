import { describe, expect, it } from 'vitest';
import { isQrVisit } from '../components/learn-more';
import { appendTranscript, finalTranscript } from '../hooks/use-voice-input';
import { takeTweakRequest } from './build-stores';
import { formatClock, formatElapsed, formatEstimate } from './format-time';
import { STORAGE_KEYS } from './storage-keys';

function memory(initial: Record<string, string>) {
  const data = new Map(Object.entries(initial));
  return {
    data,
    getItem: (key: string) => data.get(key) ?? null,
    removeItem: (key: string) => void data.delete(key),
  };
}

describe('takeTweakRequest', () => {
  it('reads the stored tweak request once and removes it', () => {
    const storage = memory({ [STORAGE_KEYS.tweakRequest]: JSON.stringify({ idea: 'Add dark mode', projectId: 'p1' }) });
    expect(takeTweakRequest(storage)).toEqual({ idea: 'Add dark mode', projectId: 'p1' });
    expect(storage.data.has(STORAGE_KEYS.tweakRequest)).toBe(false);
    expect(takeTweakRequest(storage)).toBeUndefined();
  });

  it('removes and ignores an unreadable one', () => {
    for (const raw of ['{', '{"idea":"  "}', '"just text"']) {
      const storage = memory({ [STORAGE_KEYS.tweakRequest]: raw });
      expect(takeTweakRequest(storage)).toBeUndefined();
      expect(storage.data.size).toBe(0);
    }
  });
});

describe('Learn More', () => {
  it('is forced open for ref=qr or source=qr only', () => {
    expect(isQrVisit(new URLSearchParams('ref=qr'))).toBe(true);
    expect(isQrVisit(new URLSearchParams('source=qr&x=1'))).toBe(true);
    expect(isQrVisit(new URLSearchParams('ref=email'))).toBe(false);
    expect(isQrVisit(new URLSearchParams(''))).toBe(false);
  });
});

describe('voice input', () => {
  it('appends transcripts with one space', () => {
    expect(appendTranscript('', 'hello')).toBe('hello');
    expect(appendTranscript('A todo app  ', 'with tags')).toBe('A todo app with tags');
  });

  it('joins the final results of an event', () => {
    const event = {
      resultIndex: 1,
      results: [
        { isFinal: true, 0: { transcript: 'old' } },
        { isFinal: true, 0: { transcript: ' a chat app ' } },
        { isFinal: false, 0: { transcript: 'maybe' } },
        { isFinal: true, 0: { transcript: 'with rooms' } },
      ],
    };
    expect(finalTranscript(event)).toBe('a chat app with rooms');
  });
});

describe('time formats', () => {
  it('formats estimates as ~Ns or ~Nm Ns', () => {
    expect(formatEstimate(7.4)).toBe('~7s');
    expect(formatEstimate(65)).toBe('~1m 5s');
    expect(formatEstimate(-3)).toBe('~0s');
  });

  it('formats elapsed time', () => {
    expect(formatElapsed(12.34)).toBe('12.3s');
    expect(formatElapsed(125)).toBe('2m 05s');
  });

  it('returns nothing for an unparseable timestamp', () => {
    expect(formatClock('soon')).toBe('');
    expect(formatClock('2026-11-20T10:00:00Z')).not.toBe('');
  });
});
