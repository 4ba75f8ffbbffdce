import { describe, expect, it } from 'vitest';
import { siteFileFor } from './site-path.js';

const site = new Set(['index.html', 'about.html', 'docs/index.html', 'app.js', 'img/logo.png']);
const has = (p: string) => site.has(p);

describe('the file a site path names', () => {
  it('finds files, pages without their extension and folder indexes', () => {
    expect(siteFileFor('/', has, true)).toBe('index.html');
    expect(siteFileFor('/app.js', has, false)).toBe('app.js');
    expect(siteFileFor('/about', has, true)).toBe('about.html');
    expect(siteFileFor('/docs/', has, true)).toBe('docs/index.html');
    expect(siteFileFor('/docs', has, true)).toBe('docs/index.html');
  });

  it("gives a navigation to a client-side route the site's index.html, and nothing else a file that is not there", () => {
    expect(siteFileFor('/habits/3', has, true)).toBe('index.html');
    expect(siteFileFor('/habits/3', has, false)).toBeUndefined();
    expect(siteFileFor('/missing.css', has, true)).toBeUndefined();
    expect(siteFileFor('/img/none.png', has, false)).toBeUndefined();
    expect(siteFileFor('/x', () => false, true)).toBeUndefined();
  });
});
