import { z } from 'zod';
import { versionNumber } from './common.js';

/** A route a server project's code or README names, shown as a link into its preview. */
export const previewRoute = z.object({
  method: z.string(),
  path: z.string().startsWith('/'),
  /** The file that names it. */
  file: z.string(),
  line: z.number().int().positive().optional(),
});

/**
 * The query of GET /api/projects/{id}/preview and of /preview/{id}: `version` names the version the
 * link shows (it stays on it as the project moves on); without it the link follows the current one.
 */
export const previewQuery = z.object({ version: versionNumber.optional() });
export type PreviewQuery = z.infer<typeof previewQuery>;

/**
 * GET /api/projects/{id}/preview: the signed link "Open Preview" goes to (`wolfpack preview`), on
 * the project's own preview origin, and what the preview shows.
 */
export const previewLinkReply = z.object({
  /** The signed link: it lets the browser in and goes on to the preview's root. */
  url: z.url(),
  /** The preview's own origin, e.g. `http://p-<id>.localhost:3000`. */
  origin: z.url(),
  expiresAt: z.iso.datetime(),
  /** The version the link shows, when it names one (`?version=`). */
  version: z.int().positive().optional(),
  /** A static site, a bundled app (its build), an HTTP server (run in the sandbox), or nothing to show. */
  kind: z.enum(['static', 'bundled', 'server', 'none']),
  /** Why there is nothing to show, when `kind` is `none`. */
  reason: z.string().optional(),
  /** The routes a server project's code or README names. */
  routes: z.array(previewRoute),
  /**
   * Set when browsers on other machines cannot reach the preview origin (Wolfpack reached by a
   * name other than localhost and no WOLFPACK_PREVIEW_HOST): what the operator sets.
   */
  notice: z.string().optional(),
});
export type PreviewLinkReply = z.infer<typeof previewLinkReply>;
