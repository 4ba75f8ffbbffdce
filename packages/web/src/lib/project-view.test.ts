import { describe, expect, it } from 'vitest';
import { exportFileName } from './download-zip';
import { buildFileTree, defaultFile, flattenFiles } from './file-tree';
import { formatBytes, highlightCode, HIGHLIGHT_LIMIT_BYTES, languageForPath, utf8Length, type Token } from './highlight';

describe('buildFileTree', () => {
  it('groups paths by folder, folders first, in natural order', () => {
    const tree = buildFileTree(['src/app.js', 'README.md', 'src/lib/util10.js', 'src/lib/util2.js', 'index.html', 'public/logo.svg']);
    expect(tree.map((n) => `${n.kind}:${n.name}`)).toEqual(['folder:public', 'folder:src', 'file:index.html', 'file:README.md']);
    const src = tree[1]!;
    expect(src.kind === 'folder' && src.children.map((n) => `${n.kind}:${n.path}`)).toEqual([
      'folder:src/lib',
      'file:src/app.js',
    ]);
    expect(flattenFiles(tree).map((f) => f.path)).toEqual([
      'public/logo.svg',
      'src/lib/util2.js',
      'src/lib/util10.js',
      'src/app.js',
      'index.html',
      'README.md',
    ]);
  });

  it('opens a root README first, else index.html, else the first file', () => {
    expect(defaultFile(buildFileTree(['a.js', 'index.html', 'README.md']))).toBe('README.md');
    expect(defaultFile(buildFileTree(['a.js', 'index.html', 'docs/README.md']))).toBe('index.html');
    expect(defaultFile(buildFileTree(['b.js', 'lib/a.js']))).toBe('lib/a.js');
    expect(defaultFile([])).toBeUndefined();
  });
});

function text(tokens: readonly Token[]): string {
  return tokens.map((t) => (typeof t === 'string' ? t : text(t.children))).join('');
}

describe('highlightCode', () => {
  it('picks grammars by extension', () => {
    expect(languageForPath('index.html')).toBe('xml');
    expect(languageForPath('src/App.TSX')).toBe('typescript');
    expect(languageForPath('styles.css')).toBe('css');
    expect(languageForPath('Makefile')).toBeUndefined();
    expect(languageForPath('.env')).toBeUndefined();
  });

  it('returns tokens whose text is exactly the source, markup included as text', () => {
    const html = '<!doctype html>\n<script>alert("x")</script>\n<p class="a">&amp;</p>\n';
    const tokens = highlightCode(html, 'xml');
    expect(tokens).toBeDefined();
    expect(text(tokens!)).toBe(html);
    expect(tokens!.some((t) => typeof t !== 'string' && t.className.startsWith('hljs-'))).toBe(true);
  });

  it('leaves files above 200 KB, unknown languages and empty files plain', () => {
    const big = 'const a = 1;\n'.repeat(Math.ceil((HIGHLIGHT_LIMIT_BYTES + 10) / 13));
    expect(utf8Length(big)).toBeGreaterThan(HIGHLIGHT_LIMIT_BYTES);
    expect(highlightCode(big, 'javascript')).toBeUndefined();
    expect(highlightCode('x', undefined)).toBeUndefined();
    expect(highlightCode('', 'javascript')).toBeUndefined();
  });

  it('measures UTF-8 sizes and formats them', () => {
    expect(utf8Length('aé€😀')).toBe(1 + 2 + 3 + 4);
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(3482)).toBe('3.4 KB');
    expect(formatBytes(1.5 * 1024 * 1024)).toBe('1.5 MB');
  });
});

describe('exportFileName', () => {
  it('is project- and the first 8 characters of the id', () => {
    expect(exportFileName('3f2a9c1e-77aa-4b1c-9d2e-0123456789ab')).toBe('project-3f2a9c1e.zip');
  });
});
