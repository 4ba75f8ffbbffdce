/**
 * The import dialog's rules: which file is a zip, the GitHub field (pasted addresses included),
 * the address a zip is sent to, the toast after an import and the busy button's words. The
 * dialog itself (picking, uploading, refusals) is exercised in e2e/import.spec.ts.
 */
import { IMPORT_MAX_ZIP_BYTES, type ImportReply } from '@wolfpack/core';
import { describe, expect, it } from 'vitest';
import {
  checkGithubImport,
  fileLine,
  githubRepoFrom,
  importedToast,
  importingLabel,
  importZipUrl,
  skippedReason,
  isZipFile,
  ZIP_IDEA_MAX_ENCODED,
  zipFileProblem,
  zipIdeaProblem,
} from './import-form';

function reply(fileCount: number): ImportReply {
  const at = '2026-12-05T09:00:00.000Z';
  return {
    project: { id: 'p-1', idea: 'My app', createdAt: at, updatedAt: at, fileCount, sessionCount: 0, totalCostCents: 0, replitTotalCostCents: 0, totalProcessingTimeMs: 0 },
    version: 1,
    skipped: [],
  };
}

describe('zip files', () => {
  it('takes a .zip by its name, or a file without extension by its zip type', () => {
    expect(isZipFile({ name: 'my-app.zip', type: '' })).toBe(true);
    expect(isZipFile({ name: 'MY-APP.ZIP', type: 'application/octet-stream' })).toBe(true);
    expect(isZipFile({ name: 'download', type: 'application/zip' })).toBe(true);
    expect(isZipFile({ name: 'download', type: 'application/x-zip-compressed' })).toBe(true);
    expect(isZipFile({ name: 'notes.txt', type: 'application/zip' })).toBe(false);
    expect(isZipFile({ name: 'app.tar.gz', type: 'application/gzip' })).toBe(false);
  });

  it('says why a file cannot be sent: not a zip, or bigger than the server reads', () => {
    expect(zipFileProblem({ name: 'my-app.zip', type: 'application/zip', size: 1234 })).toBeUndefined();
    expect(zipFileProblem({ name: 'notes.txt', type: 'text/plain', size: 10 })).toBe(
      'notes.txt is not a zip file. Compress the project folder into a .zip and choose that.',
    );
    const big = zipFileProblem({ name: 'huge.zip', type: 'application/zip', size: IMPORT_MAX_ZIP_BYTES + 1 });
    expect(big).toMatch(/^huge\.zip is 64\.0 MB; an import takes at most 64\.0 MB\. Zip the folder without node_modules/);
    expect(zipFileProblem({ name: 'edge.zip', type: '', size: IMPORT_MAX_ZIP_BYTES })).toBeUndefined();
  });

  it('shows a chosen file with its size', () => {
    expect(fileLine({ name: 'my-app.zip', size: 12 * 1024 })).toBe('my-app.zip · 12 KB');
  });

  it('sends the file name and a trimmed idea in the address, and no empty idea', () => {
    expect(importZipUrl('my app.zip', '')).toBe('/api/projects/import?name=my+app.zip');
    expect(importZipUrl('my-app.zip', '  A todo list & more \n')).toBe('/api/projects/import?name=my-app.zip&idea=A+todo+list+%26+more');
    expect(new URL(importZipUrl('ä.zip', 'Café ☕'), 'http://x').searchParams.get('idea')).toBe('Café ☕');
  });

  it('refuses an idea too long for the address, with what to do', () => {
    expect(zipIdeaProblem('x'.repeat(ZIP_IDEA_MAX_ENCODED))).toBeUndefined();
    expect(zipIdeaProblem('x'.repeat(ZIP_IDEA_MAX_ENCODED + 1))).toMatch(/too long to send with a zip\. Shorten it .* README\.md\.$/);
    // Encoded, not counted: 1000 emoji are 12000 characters in the address.
    expect(zipIdeaProblem('☕'.repeat(1000))).toBeDefined();
  });
});

describe('GitHub repositories', () => {
  it('takes OWNER/REPO as typed, or out of a pasted address', () => {
    expect(githubRepoFrom(' octocat/hello-world ')).toBe('octocat/hello-world');
    expect(githubRepoFrom('https://github.com/octocat/hello-world')).toBe('octocat/hello-world');
    expect(githubRepoFrom('https://github.com/octocat/hello-world.git')).toBe('octocat/hello-world');
    expect(githubRepoFrom('github.com/octocat/hello-world/tree/main/src')).toBe('octocat/hello-world');
    expect(githubRepoFrom('git@github.com:octocat/hello-world.git')).toBe('octocat/hello-world');
    expect(githubRepoFrom('octocat/hello-world/')).toBe('octocat/hello-world');
  });

  it('builds the request, leaving out an empty branch and idea', () => {
    expect(checkGithubImport({ repo: 'octocat/hello-world', ref: ' ', idea: '' })).toEqual({ ok: true, request: { github: 'octocat/hello-world' } });
    expect(checkGithubImport({ repo: 'https://github.com/octocat/hello-world', ref: ' v1.2 ', idea: ' A greeter ' })).toEqual({
      ok: true,
      request: { github: 'octocat/hello-world', ref: 'v1.2', idea: 'A greeter' },
    });
  });

  it('names the field at fault with a sentence that says what to type', () => {
    expect(checkGithubImport({ repo: '  ', ref: '', idea: '' })).toEqual({
      ok: false,
      field: 'repo',
      message: 'Enter the repository as OWNER/REPO, e.g. octocat/hello-world',
    });
    expect(checkGithubImport({ repo: 'just-a-name', ref: '', idea: '' })).toEqual({
      ok: false,
      field: 'repo',
      message: 'github must be OWNER/REPO, e.g. octocat/hello-world',
    });
    expect(checkGithubImport({ repo: 'a/b', ref: 'x'.repeat(256), idea: '' })).toMatchObject({ ok: false, field: 'ref', message: 'ref must be at most 255 characters' });
    expect(checkGithubImport({ repo: 'a/b', ref: '', idea: 'x'.repeat(50_001) })).toMatchObject({ ok: false, field: 'idea' });
  });
});

describe('after an import', () => {
  it('the toast says how many files came from where', () => {
    expect(importedToast(reply(1), 'my-app.zip')).toEqual({ title: 'Project imported', description: '1 file from my-app.zip.' });
    expect(importedToast(reply(12), 'octocat/hello-world@main')).toEqual({ title: 'Project imported', description: '12 files from octocat/hello-world@main.' });
  });

  it('a skipped entry’s reason leaves out the name the list shows beside it', () => {
    expect(skippedReason({ path: 'node_modules/', reason: 'node_modules/ is not imported: dependencies are installed from the package manifest' })).toBe(
      'dependencies are installed from the package manifest',
    );
    expect(skippedReason({ path: 'a/.DS_Store', reason: '.DS_Store is left out: the operating system made it, not the project' })).toBe(
      'the operating system made it, not the project',
    );
    expect(skippedReason({ path: 'logo.png', reason: 'binary file: Wolfpack keeps text files' })).toBe('binary file: Wolfpack keeps text files');
  });

  it('the busy button shows the upload, then the server reading it', () => {
    expect(importingLabel(0)).toBe('Uploading 0%');
    expect(importingLabel(0.426)).toBe('Uploading 42%');
    expect(importingLabel(1)).toBe('Importing...');
    expect(importingLabel(null)).toBe('Importing...');
  });
});
