/**
 * Download ZIP (spec core §7: GET /api/projects/{id}/export): the archive is fetched with the
 * session cookie and saved through an object URL, so the file gets the spec's name whatever the
 * server calls it.
 */

/** `project-{first 8 characters of id}.zip` (spec core §7). */
export function exportFileName(projectId: string): string {
  return `project-${projectId.slice(0, 8)}.zip`;
}

export const exportUrl = (projectId: string) => `/api/projects/${encodeURIComponent(projectId)}/export`;

/**
 * Fetches the project's archive and hands it to the browser as a download.
 *
 * @throws Error when the server did not answer with an archive (a missing project, no export,
 *   an HTML error page), so the caller can show 'Download Failed'.
 */
export async function downloadProjectZip(projectId: string, fetchImpl: typeof fetch = window.fetch.bind(window)): Promise<void> {
  const res = await fetchImpl(exportUrl(projectId), { credentials: 'include' });
  const type = res.headers.get('Content-Type') ?? '';
  // A server without the export route may answer with the app's HTML page or a JSON error.
  if (!res.ok || /text\/html|application\/json/i.test(type)) throw new Error(`Export failed (${res.status})`);
  const blob = await res.blob();
  const url = URL.createObjectURL(blob);
  try {
    const link = document.createElement('a');
    link.href = url;
    link.download = exportFileName(projectId);
    link.rel = 'noopener';
    document.body.append(link);
    link.click();
    link.remove();
  } finally {
    // The click starts the download synchronously; a short delay keeps older browsers happy.
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }
}
