import { describe, expect, it } from 'vitest';
import { injectOpenGraph, openGraphTags } from './open-graph.js';

const meta = { title: 'A <b>"bold"</b> & \'quoted\' idea', description: 'Line one\n\n  line two', type: 'article' as const, url: 'https://wolfpack.example/capsules/a-x' };

describe('Open Graph tags', () => {
  it('writes og:title, og:description, og:type, og:url and twitter:card', () => {
    const tags = openGraphTags(meta);
    expect(tags).toContain('<meta property="og:title" content="A &lt;b&gt;&quot;bold&quot;&lt;/b&gt; &amp; &#39;quoted&#39; idea" />');
    expect(tags).toContain('<meta property="og:description" content="Line one line two" />');
    expect(tags).toContain('<meta property="og:type" content="article" />');
    expect(tags).toContain('<meta property="og:url" content="https://wolfpack.example/capsules/a-x" />');
    expect(tags).toContain('<meta name="twitter:card" content="summary" />');
  });

  it('cuts long descriptions', () => {
    const tags = openGraphTags({ ...meta, description: 'x'.repeat(1000) });
    expect(/og:description" content="(x+)…"/.exec(tags)![1]!.length).toBeLessThan(300);
  });

  it('puts the tags in the head and replaces the title and description of index.html', () => {
    const html = '<!doctype html><html><head><meta name="description" content="Wolfpack" /><title>Wolfpack</title></head><body><div id="root"></div></body></html>';
    const out = injectOpenGraph(html, meta);
    expect(out.indexOf('og:title')).toBeLessThan(out.indexOf('</head>'));
    expect(out).toContain('<title>A &lt;b&gt;&quot;bold&quot;&lt;/b&gt; &amp; &#39;quoted&#39; idea · Wolfpack</title>');
    expect(out).toContain('<meta name="description" content="Line one line two" />');
    expect(out.match(/<title>/g)).toHaveLength(1);
    expect(out).toContain('<div id="root"></div>');
  });

  it('takes a title and description with replacement patterns as plain text ($&, $`, $\', $1, $$)', () => {
    const html = '<!doctype html><html><head><meta name="description" content="Wolfpack" /><title>Wolfpack</title></head><body><div id="root"></div></body></html>';
    const hostile = { ...meta, title: "Price $& $` $' $1 $$ done", description: "Save $' and $& now" };
    const out = injectOpenGraph(html, hostile);
    expect(out).toContain("<title>Price $&amp; $` $&#39; $1 $$ done · Wolfpack</title>");
    expect(out).toContain('<meta name="description" content="Save $&#39; and $&amp; now" />');
    expect(out).toContain('<meta property="og:title" content="Price $&amp; $` $&#39; $1 $$ done" />');
    // The page is otherwise what it was: one head, one body, nothing of it copied into the tags.
    expect(out.match(/<head>/g)).toHaveLength(1);
    expect(out.match(/<body>/g)).toHaveLength(1);
    expect(out.match(/<title>/g)).toHaveLength(1);
    expect(out.endsWith('<body><div id="root"></div></body></html>')).toBe(true);
  });
});
