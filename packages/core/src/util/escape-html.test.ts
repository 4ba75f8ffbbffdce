import { describe, expect, it } from 'vitest';
import { escapeHtml } from './escape-html.js';

describe('escapeHtml', () => {
  it('escapes the characters that could end an attribute or open a tag, and nothing else', () => {
    expect(escapeHtml(`<script>"x" & 'y'</script>`)).toBe('&lt;script&gt;&quot;x&quot; &amp; &#39;y&#39;&lt;/script&gt;');
    expect(escapeHtml('plain text, ünïcode & more')).toBe('plain text, ünïcode &amp; more');
  });
});
