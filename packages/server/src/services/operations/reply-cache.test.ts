import { describe, expect, it } from 'vitest';
import { ReplyCache } from './reply-cache.js';

const bytes = (n: number, fill = 'x') => Buffer.alloc(n, fill);

describe('ReplyCache', () => {
  it('answers what was kept under a key, and nothing under another', () => {
    const cache = new ReplyCache(1000);
    const kept = cache.set('alice 3 page', bytes(10, 'a'));
    expect(cache.get('alice 3 page')).toBe(kept);
    expect(cache.get('alice 4 page')).toBeUndefined();
    expect(cache.get('bob 3 page')).toBeUndefined();
    expect(cache.size).toBe(10);
  });

  it('drops the least recently used first, counting the encodings made of a reply', () => {
    const cache = new ReplyCache(100);
    const a = cache.set('a', bytes(30));
    cache.set('b', bytes(30));
    cache.set('c', bytes(30));
    // a is used again: b is now the oldest.
    expect(cache.get('a')).toBe(a);
    a.keep('gzip', bytes(5));
    expect(cache.size).toBe(95);
    cache.set('d', bytes(10));
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')?.encoding('gzip')?.length).toBe(5);
    expect(cache.get('c')).toBeDefined();
    expect(cache.get('d')).toBeDefined();
    expect(cache.size).toBe(75);
  });

  it('keeps the first encoding made, and does not count one made after the reply was dropped', () => {
    const cache = new ReplyCache(50);
    const a = cache.set('a', bytes(20));
    a.keep('br', bytes(4, 'b'));
    a.keep('br', bytes(6, 'c'));
    expect(a.encoding('br')?.toString()).toBe('bbbb');
    expect(cache.size).toBe(24);
    cache.set('b', bytes(40));
    expect(cache.get('a')).toBeUndefined();
    expect(cache.size).toBe(40);
    a.keep('gzip', bytes(8));
    expect(cache.size).toBe(40);
  });

  it('answers a reply larger than the whole cache without keeping it, and keeps nothing at 0', () => {
    const small = new ReplyCache(10);
    const big = small.set('big', bytes(11));
    expect(big.json.length).toBe(11);
    expect(small.get('big')).toBeUndefined();
    expect(small.size).toBe(0);

    const none = new ReplyCache(0);
    expect(none.enabled).toBe(false);
    none.set('a', bytes(1));
    expect(none.get('a')).toBeUndefined();
  });

  it('replaces a reply set again under the same key, counting it once', () => {
    const cache = new ReplyCache(100);
    cache.set('a', bytes(30)).keep('gzip', bytes(10));
    const again = cache.set('a', bytes(20));
    expect(cache.get('a')).toBe(again);
    expect(cache.size).toBe(20);
  });
});
