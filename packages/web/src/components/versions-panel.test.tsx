/**
 * What the Versions tab says for a project's history: the list newest first with labels, verdicts
 * and counts, the selected version's actions and its changed files. Selecting, restoring and the
 * diff's editor are in e2e/versions.spec.ts.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { versionSourceLabel, type VersionDiffReply, type VersionsReply, type VersionSummary } from '@wolfpack/core';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { versionKeys } from '../api/versions';
import { textsOf } from '../testing/render-markup';
import { VersionsPanel } from './versions-panel';

const PROJECT = 'b6f1d6c2-3f7e-4f61-9d7b-0c1b2a3d4e5f';

function summary(number: number, source: VersionSummary['source'], extra: Partial<VersionSummary> = {}): VersionSummary {
  return {
    number,
    createdAt: `2026-12-0${number}T10:00:00.000Z`,
    source,
    label: versionSourceLabel(source),
    runId: null,
    verdict: null,
    fileCount: 3,
    added: 0,
    changed: 0,
    removed: 0,
    current: false,
    ...extra,
  };
}

const list: VersionsReply = {
  current: 3,
  versions: [
    summary(3, { kind: 'restore', from: 1 }, { current: true, changed: 1, verdict: 'unproven' }),
    summary(2, { kind: 'continue', idea: 'Add a dark mode' }, { changed: 1, added: 1, verdict: 'failed' }),
    summary(1, { kind: 'build' }, { added: 3, verdict: 'passed' }),
  ],
};

const diff: VersionDiffReply = {
  from: 2,
  to: 3,
  added: 0,
  changed: 1,
  removed: 1,
  files: [
    { path: 'index.html', status: 'changed', before: '<h1>Broken</h1>\n', after: '<h1>Habits</h1>\n', patch: '' },
    { path: 'dark.css', status: 'removed', before: 'body{}', after: null, patch: '' },
  ],
};

function render(versions: VersionsReply | null, diffReply: VersionDiffReply | null = null, search = ''): string {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  if (versions) client.setQueryData(versionKeys.list(PROJECT), versions);
  if (diffReply) client.setQueryData(versionKeys.diff(PROJECT, diffReply.to, search.includes('compare=current') ? diffReply.from : undefined), diffReply);
  return renderToStaticMarkup(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[`/projects/${PROJECT}?tab=versions${search}`]}>
        <VersionsPanel projectId={PROJECT} currentVersion={versions?.current ?? null} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('VersionsPanel', () => {
  it('lists every version newest first with its source, verdict and counts, the current one marked', () => {
    const html = render(list, diff);
    expect(textsOf(html, 'version-number')).toEqual(['Version 3', 'Version 2', 'Version 1']);
    expect(textsOf(html, 'version-label')).toEqual(['Restored from version 1', 'Continue: Add a dark mode', 'Build']);
    expect(textsOf(html, 'version-verdict')).toEqual(['Not proven', 'Failed', 'Passed']);
    expect(textsOf(html, 'version-counts')).toEqual(['+0 ~1 \u22120', '+1 ~1 \u22120', '+3 ~0 \u22120']);
    expect(textsOf(html, 'version-current')).toEqual(['Current']);
    expect(html).toContain('data-version="3" data-current="true"');
  });

  it('opens on the current version: a preview of it, no Restore, and its changed files by status and path', () => {
    const html = render(list, diff);
    expect(html).toContain('data-testid="version-detail" data-version="3"');
    expect(textsOf(html, 'version-preview')).toEqual(['Preview this version']);
    expect(html).toContain(`href="/preview/${PROJECT}?version=3"`);
    expect(html).toContain('target="_blank"');
    expect(textsOf(html, 'version-restore')).toEqual([]);
    expect(textsOf(html, 'compare-current')).toEqual([]);
    expect(textsOf(html, 'version-diff-heading')).toEqual(['Version 3 against version 2']);
    expect(textsOf(html, 'version-diff-counts')).toEqual(['0 added, 1 changed, 1 removed']);
    expect(textsOf(html, 'version-diff-status')).toEqual(['Changed', 'Removed']);
    expect(textsOf(html, 'version-diff-path')).toEqual(['index.html', 'dark.css']);
  });

  it('opens the version the address names, with Restore and the choice of what to compare it with', () => {
    const html = render(list, { ...diff, from: 3, to: 1 }, '&version=1&compare=current');
    expect(html).toContain('data-testid="version-detail" data-version="1"');
    expect(html).toMatch(/aria-current="true"[^>]*data-version="1"/);
    expect(textsOf(html, 'version-restore')).toEqual(['Restore']);
    expect(textsOf(html, 'compare-parent')).toEqual(['What it started with']);
    expect(textsOf(html, 'compare-current')).toEqual(['Against the current version']);
    expect(html).toMatch(/aria-pressed="true"[^>]*data-testid="compare-current"/);
    expect(textsOf(html, 'version-diff-heading')).toEqual(['Version 1 against version 3']);
    expect(html).toContain(`href="/preview/${PROJECT}?version=1"`);
  });

  it('says so when a project has no versions', () => {
    const html = render({ current: 1, versions: [] });
    expect(textsOf(html, 'versions-empty').join('')).toContain('No versions yet');
  });

  it('shows a skeleton while the list loads', () => {
    const html = render(null);
    expect(html).toContain('aria-label="Loading versions"');
    expect(html).not.toContain('data-testid="version-row"');
  });
});
