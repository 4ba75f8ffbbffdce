import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { ACCEPTED_ATTACHMENT_EXTENSIONS, MAX_ATTACHMENT_BYTES, attachmentContentBytes, isAcceptedAttachment, type Attachment } from './attachments.js';
import { createFolderRequest, renameFolderRequest } from './folders.js';
import {
  conversationsReply,
  enhancementRequest,
  moveProjectRequest,
  projectDetailReply,
  projectsReply,
  promptHistoryReply,
  publishReply,
  publishRequest,
  replitCodeReply,
  streamRequest,
  suggestRepoName,
} from './projects.js';

function messages(schema: z.ZodType, value: unknown): Array<{ path: string; message: string }> {
  const result = schema.safeParse(value);
  if (result.success) return [];
  return result.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message }));
}

const textFile = (name = 'notes.md', size = 12): Attachment => ({
  filename: name,
  content: '# Notes\nhello',
  mimeType: 'text/markdown',
  size,
});

describe('streamRequest', () => {
  it('accepts the spec payload and fills defaults', () => {
    expect(streamRequest.parse({ idea: ' A todo app ', modelOrder: ['Engine A', 'Engine B'] })).toEqual({
      idea: 'A todo app',
      modelOrder: ['Engine A', 'Engine B'],
      cycles: 1,
    });
    const full = streamRequest.parse({
      idea: 'A todo app',
      modelOrder: [],
      cycles: 2,
      projectId: 'p1',
      attachments: [textFile()],
    });
    expect(full.projectId).toBe('p1');
    expect(full.attachments).toHaveLength(1);
  });

  it.each(['', '   ', '\n\t'])('rejects a blank idea %j with the spec message', (idea) => {
    expect(messages(streamRequest, { idea, modelOrder: [], cycles: 1 })).toEqual([
      { path: 'idea', message: 'Please enter an idea or speak.' },
    ]);
  });

  it('rejects cycles that are not whole numbers between 1 and 5', () => {
    for (const cycles of [0, 6, 1.5, -1]) {
      expect(streamRequest.safeParse({ idea: 'x', modelOrder: [], cycles }).success).toBe(false);
    }
  });

  it("rejects 6 attachments with 'Maximum 5 files allowed'", () => {
    const files = Array.from({ length: 6 }, (_, i) => textFile(`f${i}.txt`));
    expect(messages(streamRequest, { idea: 'x', modelOrder: [], attachments: files })).toEqual([
      { path: 'attachments', message: 'Maximum 5 files allowed' },
    ]);
    expect(streamRequest.safeParse({ idea: 'x', modelOrder: [], attachments: files.slice(0, 5) }).success).toBe(true);
  });

  it("rejects a 6 MB attachment with 'X exceeds 5MB limit'", () => {
    const big = textFile('big.json', 6 * 1024 * 1024);
    expect(messages(streamRequest, { idea: 'x', modelOrder: [], attachments: [big] })).toEqual([
      { path: 'attachments.0.size', message: 'big.json exceeds 5MB limit' },
    ]);
    expect(streamRequest.safeParse({ idea: 'x', attachments: [textFile('edge.json', MAX_ATTACHMENT_BYTES)] }).success).toBe(
      true,
    );
  });

  it('rejects content far larger than the declared size', () => {
    const liar = { ...textFile('liar.txt', 10), content: 'x'.repeat(8 * 1024 * 1024) };
    expect(messages(streamRequest, { idea: 'x', attachments: [liar] })).toEqual([
      { path: 'attachments.0.size', message: 'liar.txt exceeds 5MB limit' },
    ]);
  });

  it('rejects text just over 5 MB whose declared size says it is small', () => {
    // Under the data-URL bound on characters, so only counting what was sent catches it.
    const liar = { ...textFile('liar.txt', 10), content: 'a'.repeat(6 * 1024 * 1024) };
    expect(messages(streamRequest, { idea: 'x', attachments: [liar] })).toEqual([
      { path: 'attachments.0.size', message: 'liar.txt exceeds 5MB limit' },
    ]);
    // Multi-byte text is counted in bytes, not characters: 2 MiB of three-byte characters is 6 MiB.
    const wide = { ...textFile('wide.md', 10), content: '€'.repeat(2 * 1024 * 1024) };
    expect(streamRequest.safeParse({ idea: 'x', attachments: [wide] }).success).toBe(false);
    // An image's size is its decoded payload: 6 MiB of PNG sent as a data URL saying 8 bytes.
    const image = { filename: 'big.png', content: `data:image/png;base64,${'A'.repeat(8 * 1024 * 1024)}`, mimeType: 'image/png', size: 8 };
    expect(streamRequest.safeParse({ idea: 'x', attachments: [image] }).success).toBe(false);
  });

  it('counts what was sent exactly at the limit', () => {
    expect(attachmentContentBytes('a'.repeat(MAX_ATTACHMENT_BYTES))).toBe(MAX_ATTACHMENT_BYTES);
    expect(attachmentContentBytes('é')).toBe(2);
    expect(attachmentContentBytes('data:image/png;base64,iVBORw0KGgo=')).toBe(8);
    expect(attachmentContentBytes('data:image/png;base64,iVBORw0KGgoA')).toBe(9);
    // The largest whole base64 payload under 5 MiB passes; one more group of four characters does not.
    const underChars = Math.floor(MAX_ATTACHMENT_BYTES / 3) * 4;
    const image = (chars: number) => ({ filename: 'edge.png', content: `data:image/png;base64,${'A'.repeat(chars)}`, mimeType: 'image/png', size: 1 });
    expect(streamRequest.safeParse({ idea: 'x', attachments: [image(underChars)] }).success).toBe(true);
    expect(streamRequest.safeParse({ idea: 'x', attachments: [image(underChars + 4)] }).success).toBe(false);
  });

  it('rejects an unaccepted file type', () => {
    const exe = { filename: 'setup.exe', content: 'MZ', mimeType: 'application/octet-stream', size: 2 };
    const found = messages(streamRequest, { idea: 'x', attachments: [exe] });
    expect(found).toHaveLength(1);
    expect(found[0]?.path).toBe('attachments.0.filename');
    expect(found[0]?.message).toMatch(/^setup\.exe is not an accepted file type/);
  });

  it('accepts an image as a data URL', () => {
    const png = { filename: 'shot.png', content: 'data:image/png;base64,iVBORw0KGgo=', mimeType: 'image/png', size: 8 };
    expect(streamRequest.safeParse({ idea: 'x', attachments: [png] }).success).toBe(true);
  });
});

describe('isAcceptedAttachment', () => {
  it('accepts every listed extension, case-insensitively', () => {
    for (const ext of ACCEPTED_ATTACHMENT_EXTENSIONS) {
      expect(isAcceptedAttachment(`file.${ext}`, '')).toBe(true);
      expect(isAcceptedAttachment(`FILE.${ext.toUpperCase()}`, '')).toBe(true);
    }
  });

  it('accepts any image MIME type and rejects others', () => {
    expect(isAcceptedAttachment('photo', 'image/heic')).toBe(true);
    expect(isAcceptedAttachment('archive.zip', 'application/zip')).toBe(false);
    expect(isAcceptedAttachment('Makefile', 'text/plain')).toBe(false);
    expect(isAcceptedAttachment('script.sh', 'text/x-sh')).toBe(false);
  });
});

describe('enhancementRequest', () => {
  it('defaults attachments and rejects a blank prompt', () => {
    expect(enhancementRequest.parse({ prompt: 'make it better' })).toEqual({ prompt: 'make it better', attachments: [] });
    expect(enhancementRequest.safeParse({ prompt: '  ', attachments: [] }).success).toBe(false);
  });
});

describe('project replies', () => {
  it('parses numeric strings in the project list as numbers', () => {
    const reply = projectsReply.parse({
      projects: [
        {
          id: 'p1',
          idea: 'A todo app',
          createdAt: '2026-11-01T10:00:00.000Z',
          updatedAt: '2026-11-01T10:05:00.000Z',
          fileCount: '3',
          sessionCount: '2',
          totalCostCents: '150',
          replitTotalCostCents: 900,
          totalProcessingTimeMs: '42000',
        },
      ],
    });
    expect(reply.projects[0]).toMatchObject({
      fileCount: 3,
      sessionCount: 2,
      totalCostCents: 150,
      replitTotalCostCents: 900,
      totalProcessingTimeMs: 42000,
    });
  });

  it('defaults the companion numbers and rejects fractional cents', () => {
    const base = { id: 'p1', idea: '', createdAt: 'x', updatedAt: 'x', fileCount: 0 };
    expect(projectsReply.parse({ projects: [base] }).projects[0]?.totalCostCents).toBe(0);
    expect(projectsReply.safeParse({ projects: [{ ...base, totalCostCents: '1.5' }] }).success).toBe(false);
    expect(projectsReply.safeParse({ projects: [{ ...base, fileCount: 'three' }] }).success).toBe(false);
  });

  it('parses the project detail with its file map', () => {
    const reply = projectDetailReply.parse({
      project: { id: 'p1', idea: 'x', createdAt: 'a', updatedAt: 'b', fsIndex: { 'src/index.ts': 'export {}' } },
      files: ['src/index.ts'],
    });
    expect(reply.project.fsIndex['src/index.ts']).toBe('export {}');
  });

  it('parses conversations, with and without a project', () => {
    const reply = conversationsReply.parse({
      conversations: [
        { id: 'c1', idea: 'x', createdAt: 'a', stages: [{ role: 'Planning', ok: true, durationMs: 1200 }], projectId: 'p1' },
        { id: 'c2', idea: 'y', createdAt: 'a', stages: [], projectId: null },
      ],
    });
    expect(reply.conversations.map((c) => c.projectId)).toEqual(['p1', null]);
    expect(conversationsReply.safeParse({ conversations: [{ id: 'c', idea: '', createdAt: 'a', stages: [{ role: 'Coding', ok: true }], projectId: null }] }).success).toBe(false);
  });

  it('parses prompt history, also for projects without one', () => {
    expect(promptHistoryReply.parse({ enhancement: null, steps: [] })).toEqual({ enhancement: null, steps: [] });
    const reply = promptHistoryReply.parse({
      enhancement: { sourcePrompt: 'a', finalPrompt: 'b', cyclesRun: 2 },
      steps: [
        {
          id: 's1',
          passNumber: 1,
          engineOrder: 1,
          engineKey: 'engine-a',
          engineModel: 'model-1',
          inputPrompt: 'a',
          outputPrompt: 'a+',
          durationMs: 900,
        },
      ],
    });
    expect(reply.steps[0]?.durationMs).toBe(900);
  });

  it('parses the replit-code reply', () => {
    expect(replitCodeReply.parse({ success: true, code: '// all files', fileCount: 2 })).toMatchObject({ fileCount: 2 });
    expect(replitCodeReply.parse({ success: false, code: '', fileCount: 0, error: 'Failed to generate code' }).error).toBe(
      'Failed to generate code',
    );
  });
});

describe('publish', () => {
  it("requires a repository name with 'Please enter a name for your GitHub repository'", () => {
    for (const repoName of ['', '   ']) {
      expect(messages(publishRequest, { repoName, description: '', isPrivate: false })).toEqual([
        { path: 'repoName', message: 'Please enter a name for your GitHub repository' },
      ]);
    }
  });

  it('accepts GitHub-valid names and rejects others', () => {
    expect(publishRequest.parse({ repoName: 'my-todo_app.v2' })).toEqual({
      repoName: 'my-todo_app.v2',
      description: '',
      isPrivate: false,
    });
    for (const repoName of ['has space', 'slash/name', 'ümlaut', '..', 'x'.repeat(101)]) {
      expect(publishRequest.safeParse({ repoName }).success, repoName).toBe(false);
    }
  });

  it('parses the publish reply', () => {
    const reply = { repoUrl: 'https://github.com/wolf/app', replitUrl: 'https://replit.com/github/wolf/app' };
    expect(publishReply.parse(reply)).toEqual(reply);
    expect(publishReply.safeParse({ repoUrl: 'nope', replitUrl: 'x' }).success).toBe(false);
  });

  it('suggests a repository name as the spec describes', () => {
    expect(suggestRepoName('Build a To-Do app, with   React & Node!')).toBe('build-a-to-do-app-with-react-node');
    expect(suggestRepoName('x'.repeat(80))).toHaveLength(50);
    // Only the first 50 characters of the idea are used, before anything is removed.
    expect(suggestRepoName(`${'a'.repeat(49)}!bcd`)).toBe('a'.repeat(49));
  });
});

describe('folders', () => {
  it('rejects a blank folder name on create and rename', () => {
    expect(messages(createFolderRequest, { name: '  ', parentFolderId: null })).toEqual([
      { path: 'name', message: 'Please enter a folder name' },
    ]);
    expect(messages(renameFolderRequest, { name: '' })).toEqual([{ path: 'name', message: 'Please enter a folder name' }]);
  });

  it('creates top-level folders when parentFolderId is absent', () => {
    expect(createFolderRequest.parse({ name: ' Work ' })).toEqual({ name: 'Work', parentFolderId: null });
    expect(createFolderRequest.parse({ name: 'Sub', parentFolderId: 'f1' })).toEqual({ name: 'Sub', parentFolderId: 'f1' });
  });

  it('moves projects to a folder or to the root', () => {
    expect(moveProjectRequest.parse({ folderId: null })).toEqual({ folderId: null });
    expect(moveProjectRequest.parse({ folderId: 'f1' })).toEqual({ folderId: 'f1' });
    expect(moveProjectRequest.safeParse({}).success).toBe(false);
  });
});
