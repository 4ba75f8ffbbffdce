import type { Context } from 'koa';
import type { PreviewAnswer } from '../services/preview/preview-service.js';

/**
 * Wolfpack's own pages about a preview run no script at all, and load nothing. `allow-scripts` in
 * the sandbox, with no script allowed to load: Chromium runs no meta refresh in a sandbox without
 * it, and "Starting the server…" refreshes itself.
 */
const PAGE_CSP = "sandbox allow-scripts; default-src 'none'; style-src 'unsafe-inline'";

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** What a page of Wolfpack's about a preview says: building, failed, not allowed, nothing to show. */
export type PreviewPageContent = Omit<Extract<PreviewAnswer, { kind: 'page' }>, 'kind' | 'status'> & {
  /** Links under the text, e.g. the preview's own link: `[label, href]`. */
  links?: [string, string][];
};

/** A page of Wolfpack's own: text only, every generated value escaped, no script. */
export function sendPage(ctx: Context, page: PreviewPageContent): void {
  ctx.set('Content-Security-Policy', PAGE_CSP);
  ctx.type = 'text/html; charset=utf-8';
  const refresh = page.refreshSeconds ? `<meta http-equiv="refresh" content="${page.refreshSeconds}">` : '';
  const problem = page.problem
    ? `<h2>${escape(page.problem.line ? `${page.problem.path}:${page.problem.line}` : page.problem.path)}</h2><p data-testid="preview-problem">${escape(page.problem.message)}</p>${page.command ? `<p>While running <code>${escape(page.command)}</code></p>` : ''}${page.problem.output ? `<pre>${escape(page.problem.output)}</pre>` : ''}`
    : '';
  const repair = page.repairHref ? `<p><a href="${escape(page.repairHref)}" data-testid="preview-repair">Repair again</a> (opens the project in Wolfpack, where Repair again sends this problem to an engine)</p>` : '';
  const links = (page.links ?? []).map(([label, href]) => `<p><a href="${escape(href)}">${escape(label)}</a></p>`).join('');
  ctx.body = `<!doctype html><html lang="en"><head><meta charset="utf-8">${refresh}<title>${escape(page.title)}</title><style>body{font-family:system-ui,sans-serif;max-width:44rem;margin:4rem auto;padding:0 1rem;color:#1f2937}h1{font-size:1.4rem}h2{font-size:1rem;font-family:ui-monospace,monospace}pre{white-space:pre-wrap;background:#f3f4f6;padding:.75rem;border-radius:.375rem;font-size:.8rem}</style></head><body><h1>${escape(page.title)}</h1><p>${escape(page.text)}</p>${problem}${repair}${links}</body></html>`;
}
