import { previewLinkReply } from '@wolfpack/core';
import { loggedInApi, type CommandContext } from '../context.js';
import { explained, resolveProjectId } from '../resources.js';

/** `wolfpack preview` has no options of its own. */
export type PreviewOptions = Record<string, never>;

const SHOWS = {
  static: 'its files as they are',
  bundled: 'its build (the page shows "Building preview…" until the build is ready)',
  server: 'its server, run in the sandbox (every path of the origin goes to it)',
} as const;

/**
 * `wolfpack preview ID`: prints the project's preview link (GET /api/projects/{id}/preview), the
 * page "Open Preview" shows, on the project's own origin: a static site as it is, a bundled app as
 * its sandboxed build, an HTTP server as itself, with the routes its code names. The link lets
 * any browser in, without signing in, until it expires or its owner revokes it.
 */
export async function preview(id: string, _options: PreviewOptions, context: CommandContext): Promise<void> {
  const api = await loggedInApi(context);
  const projectId = await resolveProjectId(api, id);
  const link = await explained(api, () => api.get(`/api/projects/${encodeURIComponent(projectId)}/preview`, { reply: previewLinkReply }));
  const hours = Math.max(1, Math.round((Date.parse(link.expiresAt) - Date.now()) / 3600_000));
  const lines = [link.url];
  if (link.kind === 'none') lines.push(`(nothing to preview: ${link.reason ?? 'the project has no page or server'})`);
  else lines.push(`(the project on its own origin, ${link.origin}: ${SHOWS[link.kind]}; the link lets a browser in for about ${hours} hours)`);
  if (link.routes.length > 0) lines.push(`Routes in its code: ${link.routes.map((r) => `${r.method} ${r.path}`).join(', ')}`);
  if (link.notice) lines.push(link.notice);
  context.output.result(lines.join('\n'), {
    projectId,
    url: link.url,
    origin: link.origin,
    expiresAt: link.expiresAt,
    kind: link.kind,
    routes: link.routes,
  });
}
