import { previewLinkReply } from '@wolfpack/core';
import { loggedInApi, type CommandContext } from '../context.js';
import { explained, resolveProjectId } from '../resources.js';

/** `wolfpack preview` has no options of its own. */
export type PreviewOptions = Record<string, never>;

/**
 * `wolfpack preview ID`: prints the project's preview link (GET /api/projects/{id}/preview), the
 * page "Open Preview" shows: a static site as it is, a bundled app as its sandboxed build (the
 * link shows "Building preview…" until it is ready). The link works without signing in, in any
 * browser, until it expires.
 */
export async function preview(id: string, _options: PreviewOptions, context: CommandContext): Promise<void> {
  const api = await loggedInApi(context);
  const projectId = await resolveProjectId(api, id);
  const link = await explained(api, () => api.get(`/api/projects/${encodeURIComponent(projectId)}/preview`, { reply: previewLinkReply }));
  const hours = Math.max(1, Math.round((Date.parse(link.expiresAt) - Date.now()) / 3600_000));
  context.output.result(`${link.url}\n(works in any browser for about ${hours} hours; a bundled app shows "Building preview…" until its build is ready)`, {
    projectId,
    url: link.url,
    expiresAt: link.expiresAt,
  });
}
