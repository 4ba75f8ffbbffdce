/**
 * The import dialog's last step when entries were left out: each skipped path with its reason,
 * as text (paths come from an untrusted archive), and the way to the new project.
 */
import type { ImportReply } from '@wolfpack/core';
import { describe, expect, it } from 'vitest';
import { renderMarkup, textsOf } from '../testing/render-markup';
import { ImportDone } from './import-project-dialog';

const at = '2026-12-05T09:00:00.000Z';
const reply: ImportReply = {
  project: { id: 'p-1', idea: 'My app', createdAt: at, updatedAt: at, fileCount: 3, sessionCount: 0, totalCostCents: 0, replitTotalCostCents: 0, totalProcessingTimeMs: 0 },
  version: 1,
  skipped: [
    { path: 'node_modules/', reason: 'node_modules/ is not imported: dependencies are installed from the package manifest' },
    { path: '<img src=x onerror=alert(1)>.png', reason: 'binary file' },
  ],
};

describe('ImportDone', () => {
  it('lists every skipped entry with its reason, escaped, and offers the project', () => {
    const html = renderMarkup(<ImportDone reply={reply} onOpen={() => {}} onClose={() => {}} />);
    expect(html).toContain('Skipped 2 entries:');
    expect(textsOf(html, 'import-skipped')[0]).toBe(
      'node_modules/ (dependencies are installed from the package manifest)&lt;img src=x onerror=alert(1)&gt;.png (binary file)',
    );
    expect(html).not.toContain('<img');
    expect(textsOf(html, 'import-open')).toEqual(['Open project']);
  });

  it('says "entry" for one', () => {
    const html = renderMarkup(<ImportDone reply={{ ...reply, skipped: reply.skipped.slice(0, 1) }} onOpen={() => {}} onClose={() => {}} />);
    expect(html).toContain('Skipped 1 entry:');
  });
});
