import type { Attachment } from '@wolfpack/core';
import { streamRequest } from '@wolfpack/core';
import { describe, expect, it } from 'vitest';
import { ESTIMATE_ATTACHMENT_CHARS, estimateRequest } from './run-estimate';

const text = (content: string): Attachment => ({ filename: 'notes.md', content, mimeType: 'text/markdown', size: content.length });
const image: Attachment = { filename: 'sketch.png', content: 'data:image/png;base64,AAAA', mimeType: 'image/png', size: 3 };

describe('estimateRequest', () => {
  it('asks with what a run would send the engines: text cut where the pipeline cuts it, no images', () => {
    const body = estimateRequest({ idea: '  A habit tracker ', attachments: [text('x'.repeat(ESTIMATE_ATTACHMENT_CHARS + 10)), image, text('short')], modelOrder: ['alpha'], projectId: 'p1' });
    expect(body).toMatchObject({ idea: 'A habit tracker', modelOrder: ['alpha'], cycles: 1, projectId: 'p1' });
    expect(body.attachments?.map((a) => a.content.length)).toEqual([ESTIMATE_ATTACHMENT_CHARS, 5]);
    expect(streamRequest.safeParse(body).success).toBe(true);
  });

  it('leaves out what the run would not send', () => {
    const body = estimateRequest({ idea: 'A habit tracker', attachments: [image], modelOrder: [], projectId: null });
    expect(body).toEqual({ idea: 'A habit tracker', modelOrder: [], cycles: 1 });
  });
});
