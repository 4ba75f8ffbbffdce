import { describe, expect, it } from 'vitest';
import {
  commonTopFolder,
  decodeImportedText,
  ideaFromReadme,
  importEntryNameProblem,
  importFilePath,
  importIdea,
  importSkip,
  importSkipReason,
  readmePath,
  stripTopFolder,
} from './import-rules.js';

describe('importSkipReason', () => {
  it('leaves out dependencies, version control, build output and caches at any depth, saying why', () => {
    expect(importSkipReason('node_modules/react/index.js')).toMatch(/^node_modules\/ is not imported: dependencies/);
    expect(importSkipReason('packages/web/node_modules/x/y.js')).toMatch(/^node_modules\//);
    expect(importSkipReason('.git/HEAD')).toMatch(/^\.git\/ is not imported: version control/);
    expect(importSkipReason('dist/index.js')).toMatch(/^dist\/ is not imported: build output/);
    expect(importSkipReason('packages/core/dist/index.d.ts')).toMatch(/^dist\//);
    for (const folder of ['build', '.next', 'out', 'coverage', '__pycache__', '.venv', 'target', '__MACOSX']) {
      expect(importSkipReason(`${folder}/a.txt`), folder).toContain(`${folder}/ is not imported`);
    }
  });

  it('leaves out files the operating system made', () => {
    expect(importSkipReason('.DS_Store')).toMatch(/\.DS_Store is left out/);
    expect(importSkipReason('src/.DS_Store')).not.toBeNull();
    expect(importSkipReason('src/Thumbs.db')).not.toBeNull();
    expect(importSkipReason('src/._index.ts')).not.toBeNull();
  });

  it('names a skipped folder once, by its path', () => {
    expect(importSkip('packages/web/node_modules/react/index.js')).toEqual({
      path: 'packages/web/node_modules/',
      reason: 'node_modules/ is not imported: dependencies are installed from the package manifest',
    });
    expect(importSkip('src/.DS_Store')?.path).toBe('src/.DS_Store');
    expect(importSkip('src/a.ts')).toBeNull();
  });

  it('imports everything else, including files named like the skipped folders', () => {
    for (const path of ['src/index.ts', 'README.md', 'dist', 'src/build.ts', 'src/distance/a.ts', '.gitignore', '.github/workflows/ci.yml', 'node_modules.md']) {
      expect(importSkipReason(path), path).toBeNull();
    }
  });
});

describe('importEntryNameProblem', () => {
  it('refuses names that would leave the folder, naming them', () => {
    expect(importEntryNameProblem('../x')).toBe('"../x" contains ".." and would be unpacked outside the project');
    expect(importEntryNameProblem('app/../../etc/passwd')).toMatch(/"app\/..\/..\/etc\/passwd" contains "\.\."/);
    expect(importEntryNameProblem('/etc/x')).toMatch(/"\/etc\/x" is an absolute path/);
    expect(importEntryNameProblem('C:\\x')).toMatch(/backslash/);
    expect(importEntryNameProblem('C:/x')).toMatch(/drive letter/);
    expect(importEntryNameProblem('a\\b.txt')).toMatch(/backslash/);
    expect(importEntryNameProblem('a\u0000b')).toMatch(/control character/);
  });

  it('accepts ordinary names, folders and dots that stay inside', () => {
    for (const name of ['a.txt', 'my-app/', 'my-app/src/a.ts', './a.ts', 'a..b/c', '.env.example']) {
      expect(importEntryNameProblem(name), name).toBeNull();
    }
  });
});

describe('top folder', () => {
  it('finds the one folder every path starts with, ignoring __MACOSX', () => {
    expect(commonTopFolder(['octocat-hello-abc123/', 'octocat-hello-abc123/README', 'octocat-hello-abc123/src/a.js'])).toBe('octocat-hello-abc123');
    expect(commonTopFolder(['my-app/a.ts', 'my-app/b/c.ts', '__MACOSX/my-app/._a.ts'])).toBe('my-app');
  });

  it('finds none when a file is at the top or two folders are', () => {
    expect(commonTopFolder(['README.md', 'src/a.ts'])).toBeNull();
    expect(commonTopFolder(['src/a.ts', 'test/a.ts'])).toBeNull();
    expect(commonTopFolder(['only-file.txt'])).toBeNull();
    expect(commonTopFolder([])).toBeNull();
    expect(commonTopFolder(['node_modules/a/index.js', 'node_modules/b.js'])).toBeNull();
  });

  it('strips it from the paths', () => {
    expect(stripTopFolder('my-app/src/a.ts', 'my-app')).toBe('src/a.ts');
    expect(stripTopFolder('./my-app//src/a.ts', 'my-app')).toBe('src/a.ts');
    expect(stripTopFolder('src/a.ts', null)).toBe('src/a.ts');
  });
});

describe('importFilePath', () => {
  it('refuses what sanitizePath refuses, saying why', () => {
    const refused = importFilePath('src/con.ts');
    expect(refused.ok).toBe(false);
    expect(!refused.ok && refused.reason).toMatch(/reserved device name/);
    expect(importFilePath('src/a.ts')).toEqual({ ok: true, path: 'src/a.ts' });
  });
});

describe('decodeImportedText', () => {
  const bytes = (s: string) => new TextEncoder().encode(s);
  it('gives UTF-8 text back', () => {
    expect(decodeImportedText(bytes('héllo ✓ 🐺'))).toBe('héllo ✓ 🐺');
    expect(decodeImportedText(new Uint8Array())).toBe('');
  });
  it('calls a NUL byte or invalid UTF-8 binary', () => {
    expect(decodeImportedText(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBeNull();
    expect(decodeImportedText(new Uint8Array([0x61, 0x00, 0x62]))).toBeNull();
    expect(decodeImportedText(new Uint8Array([0x63, 0x61, 0x66, 0xe9]))).toBeNull(); // Latin-1 "café"
  });
});

describe('ideaFromReadme', () => {
  it('takes the first paragraph after headings and badges, as plain text', () => {
    const readme = [
      '# Recipe Book',
      '',
      '[![CI](https://github.com/o/r/actions/workflows/ci.yml/badge.svg)](https://github.com/o/r/actions) ![npm](https://img.shields.io/npm/v/x.svg)',
      '',
      'A **small** app to keep [recipes](https://example.com) and `shopping lists`,',
      'shared with _family_.',
      '',
      'Second paragraph.',
    ].join('\n');
    expect(ideaFromReadme(readme)).toBe('A small app to keep recipes and shopping lists, shared with family.');
  });

  it('skips HTML banners, setext headings, rules and code blocks', () => {
    const readme = ['<p align="center"><img src="logo.png"></p>', '', 'Title', '=====', '', '---', '', '```sh', 'npm install', '```', '', '> Track your runs.'].join('\r\n');
    expect(ideaFromReadme(readme)).toBe('Track your runs.');
  });

  it('is null when there is nothing but headings and badges', () => {
    expect(ideaFromReadme('# Title\n\n![badge](x.svg)\n')).toBeNull();
    expect(ideaFromReadme('')).toBeNull();
  });

  it('keeps at most 2,000 characters', () => {
    const idea = ideaFromReadme(`# T\n\n${'word '.repeat(1000)}`)!;
    expect(idea.length).toBe(2000);
    expect(idea.endsWith('…')).toBe(true);
  });
});

describe('importIdea', () => {
  it('prefers the idea given, then the README, then the origin', () => {
    const files = { 'README.md': '# X\n\nA todo list.\n', 'src/a.ts': '' };
    expect(importIdea('  Chess clock ', files, 'a zip file')).toBe('Chess clock');
    expect(importIdea(undefined, files, 'a zip file')).toBe('A todo list.');
    expect(importIdea('', { 'readme': 'Plain readme.' }, 'x.zip')).toBe('Plain readme.');
    expect(importIdea(undefined, { 'docs/README.md': 'Nested.' }, 'x.zip')).toBe('Imported from x.zip');
    expect(importIdea(undefined, { 'README.md': '# Only a title' }, 'github:o/r@main')).toBe('Imported from github:o/r@main');
  });

  it('finds README.md, readme.md or README at the root', () => {
    expect(readmePath(['src/README.md', 'readme.md'])).toBe('readme.md');
    expect(readmePath(['README', 'a.ts'])).toBe('README');
    expect(readmePath(['a.ts'])).toBeNull();
  });
});
