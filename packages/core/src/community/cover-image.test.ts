import { describe, expect, it } from 'vitest';
import { escapeXml, generatedCoverSvg, sniffCoverImage } from './cover-image.js';

const bytes = (...values: number[]) => new Uint8Array([...values, ...Array(16).fill(0)]);

describe('generatedCoverSvg', () => {
  it('is an SVG with a gradient that depends only on the title', () => {
    const svg = generatedCoverSvg('Todo app');
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(svg).toContain('<linearGradient');
    expect(svg).toContain('>Todo app</text>');
    expect(generatedCoverSvg('Todo app')).toBe(svg);
    const colours = (s: string) => s.match(/stop-color="[^"]+"/g);
    expect(colours(generatedCoverSvg('Weather board'))).not.toEqual(colours(svg));
  });

  it('escapes the title so it cannot break out of the markup', () => {
    const svg = generatedCoverSvg('<script>alert("x")</script> & \'more\'');
    expect(svg).not.toContain('<script>');
    expect(svg).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    expect(svg).toContain('&amp;');
    expect(escapeXml('a\u0000b')).toBe('ab');
  });

  it('wraps a long title to at most four lines and splits a long word', () => {
    const svg = generatedCoverSvg('A very long title for a project that keeps going and going well past the width of one line of the cover image and then some more words');
    const lines = svg.match(/<text /g) ?? [];
    expect(lines.length).toBe(4);
    expect(svg).toContain('…</text>');
    const word = generatedCoverSvg('x'.repeat(60));
    expect(word.match(/<text /g)).toHaveLength(3);
    expect(generatedCoverSvg('   ')).toContain('>Untitled Project</text>');
  });
});

describe('sniffCoverImage', () => {
  it('recognises PNG, JPEG, GIF and WebP by their magic bytes', () => {
    expect(sniffCoverImage(bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a))).toBe('image/png');
    expect(sniffCoverImage(bytes(0xff, 0xd8, 0xff, 0xe0))).toBe('image/jpeg');
    expect(sniffCoverImage(bytes(...Buffer.from('GIF89a')))).toBe('image/gif');
    expect(sniffCoverImage(bytes(...Buffer.from('GIF87a')))).toBe('image/gif');
    expect(sniffCoverImage(bytes(...Buffer.from('RIFF'), 1, 2, 3, 4, ...Buffer.from('WEBP')))).toBe('image/webp');
  });

  it('refuses SVG, HTML, truncated headers and anything else', () => {
    expect(sniffCoverImage(new Uint8Array(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>')))).toBeNull();
    expect(sniffCoverImage(new Uint8Array(Buffer.from('<!doctype html><p>hi')))).toBeNull();
    expect(sniffCoverImage(new Uint8Array([0x89, 0x50, 0x4e]))).toBeNull();
    expect(sniffCoverImage(bytes(...Buffer.from('RIFF'), 1, 2, 3, 4, ...Buffer.from('WAVE')))).toBeNull();
    expect(sniffCoverImage(new Uint8Array())).toBeNull();
  });
});
