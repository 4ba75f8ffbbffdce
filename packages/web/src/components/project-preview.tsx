import { ExternalLink, Globe, LoaderCircle, ShieldOff } from 'lucide-react';
import { previewHref, useProjectPreview, useRevokePreviewLinks } from '../api/previews';
import { toast } from '../hooks/use-toast';
import { Button, buttonClass } from './button';

const KIND_TEXT = {
  static: 'A static site, served as its files are.',
  bundled: 'An app built by its bundler: the preview shows its build.',
  server: 'An HTTP server: the preview runs it in the sandbox, and every path of its origin goes to it.',
} as const;

/**
 * "Open Preview" on the project page: the project running on its own origin, the routes a server
 * project's code and README name as links into it, and revoking every preview link handed out.
 */
export function ProjectPreview({ projectId }: { projectId: string }) {
  const preview = useProjectPreview(projectId);
  const revoke = useRevokePreviewLinks(projectId);
  if (preview.isPending) return null;
  if (preview.isError) return <p className="text-sm text-zinc-500">The preview’s details could not be loaded.</p>;
  const { kind, routes, reason, notice } = preview.data;

  async function revokeLinks() {
    try {
      await revoke.mutateAsync();
      toast({ title: 'Preview links revoked', description: 'Every preview link of this project and every browser that opened one is signed out of it. Open Preview makes a new one.' });
    } catch {
      toast({ title: 'Revoke failed', description: 'The preview links could not be revoked. Try again.', variant: 'destructive' });
    }
  }

  return (
    <section className="flex flex-col gap-3 border-t border-zinc-100 pt-4 text-sm dark:border-zinc-800" aria-label="Preview" data-testid="project-preview">
      <div className="flex flex-wrap items-center gap-2">
        {kind === 'none' ? (
          <p className="text-zinc-600 dark:text-zinc-400" data-testid="preview-none">
            Nothing to preview: {reason}
          </p>
        ) : (
          <>
            <a className={buttonClass('primary', 'sm')} href={previewHref(projectId)} target="_blank" rel="noopener noreferrer" data-testid="open-preview">
              <ExternalLink className="h-4 w-4" aria-hidden />
              Open Preview
            </a>
            <span className="text-zinc-600 dark:text-zinc-400">{KIND_TEXT[kind]}</span>
          </>
        )}
        <Button variant="ghost" size="sm" onClick={() => void revokeLinks()} disabled={revoke.isPending} data-testid="revoke-preview-links" className="ml-auto">
          {revoke.isPending ? <LoaderCircle className="h-4 w-4 animate-spin" aria-hidden /> : <ShieldOff className="h-4 w-4" aria-hidden />}
          Revoke preview links
        </Button>
      </div>
      {notice ? <p className="text-amber-700 dark:text-amber-400" data-testid="preview-notice">{notice}</p> : null}
      {kind === 'server' && routes.length > 0 ? (
        <div className="flex flex-col gap-1">
          <span className="flex items-center gap-1.5 text-xs font-medium text-zinc-500 dark:text-zinc-400">
            <Globe className="h-3.5 w-3.5" aria-hidden />
            Routes in its code and README
          </span>
          <ul className="flex flex-wrap gap-x-4 gap-y-1 font-mono text-xs" data-testid="preview-routes">
            {routes.map((route) => (
              <li key={`${route.method} ${route.path}`} title={route.line ? `${route.file}:${route.line}` : route.file}>
                {route.method === 'GET' && !route.path.includes(':') && !route.path.includes('*') ? (
                  <a className="text-brand-strong hover:underline" href={previewHref(projectId, route.path)} target="_blank" rel="noopener noreferrer">
                    GET {route.path}
                  </a>
                ) : (
                  <span className="text-zinc-600 dark:text-zinc-400">
                    {route.method} {route.path}
                  </span>
                )}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </section>
  );
}
