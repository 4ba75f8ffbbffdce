import { AppError, capsule as capsuleSchema, capsulesReply, type Capsule } from '@wolfpack/core';
import { z } from 'zod';
import type { ApiClient } from '../api.js';
import { explainLoggedOut, loggedInApi, spinnerOptions, type CommandContext } from '../context.js';
import { SHORT_ID_LENGTH } from '../resources.js';
import { capsuleUrl, capsulesTable, capsulesTotals } from '../showcase-format.js';
import { withSpinner } from '../ui/spinner.js';
import { UsageError } from '../usage-error.js';

export const CAPSULE_NOT_FOUND = 'Capsule not found. `wolfpack capsules ls` lists your capsules.';

/** POST /api/capsules/{id}/publish answers the capsule as it now is. */
const publishReply = z.object({ capsule: capsuleSchema });

/**
 * `wolfpack capsules ls`: the user's PackCast capsules, newest first (GET
 * /api/capsules/user/my-capsules): short id, title, public or private, views, shares and the
 * link, then the totals. `--json`: `{capsules}` as the API answers them (`isPublic` the string
 * "true" or "false"), each with its `url` added.
 */
export async function capsulesList(_options: object, context: CommandContext): Promise<void> {
  const api = await loggedInApi(context);
  const capsules = await withSpinner('Fetching your capsules', () => myCapsules(api), spinnerOptions(context));
  if (context.output.json) return context.output.result('', { capsules: capsules.map((c) => ({ ...asSent(c), url: capsuleUrl(api.server, c) })) });

  if (capsules.length === 0) {
    context.io.stdout.write('No capsules yet. Every completed `wolfpack build` records one, private until you publish it.\n');
    return;
  }
  const [header, ...lines] = capsulesTable(capsules, api.server);
  lines.push('', capsulesTotals(capsules));
  context.io.stdout.write(`${[context.output.style('bold', header!), ...lines].join('\n')}\n`);
}

/**
 * `wolfpack capsules publish ID` / `unpublish ID`: makes a capsule public (anyone with the link
 * can open it) or private again (POST /api/capsules/{id}/publish {isPublic}). Publishing prints
 * the public URL alone on stdout, so `wolfpack capsules publish ID | pbcopy` works; `--json`:
 * `{id, slug, isPublic, url}`, `isPublic` as the API has it ("true" or "false").
 */
export async function capsulesPublish(id: string, isPublic: boolean, _options: object, context: CommandContext): Promise<void> {
  const api = await loggedInApi(context);
  const found = findCapsule(await myCapsules(api), id);
  const { capsule } = await withSpinner(
    isPublic ? 'Publishing the capsule' : 'Making the capsule private',
    () => signedIn(api, () => api.post(`/api/capsules/${encodeURIComponent(found.id)}/publish`, { body: { isPublic }, reply: publishReply })),
    spinnerOptions(context),
  );
  const url = capsuleUrl(api.server, capsule);
  const data = { id: capsule.id, slug: capsule.slug, isPublic: asSent(capsule).isPublic, url };
  if (!isPublic) return context.output.result(`"${capsule.title}" is private now: only you can open ${url}.`, data);
  if (!context.output.json) context.io.stderr.write(`"${capsule.title}" is public now. Anyone with this link can watch it:\n`);
  context.output.result(url, data);
}

/**
 * A capsule as the API sends it. Parsing makes `isPublic` a boolean for the CLI's own use; scripts
 * reading `--json` get the API's string, so one parser serves the API and the CLI alike.
 */
function asSent(capsule: Capsule): Omit<Capsule, 'isPublic'> & { isPublic: 'true' | 'false' } {
  return { ...capsule, isPublic: capsule.isPublic ? 'true' : 'false' };
}

function myCapsules(api: ApiClient): Promise<Capsule[]> {
  return signedIn(api, async () => (await api.get('/api/capsules/user/my-capsules', { reply: capsulesReply })).capsules);
}

function signedIn<T>(api: ApiClient, call: () => Promise<T>): Promise<T> {
  return call().catch((error: unknown) => {
    throw explainLoggedOut(error, api.server);
  });
}

/**
 * The user's capsule named by its id, the start of its id (the table's 8 characters) or its slug
 * (the end of its URL). Only the user's own capsules can be published, so their list is the
 * whole search space.
 */
export function findCapsule(capsules: readonly Capsule[], given: string): Capsule {
  // A pasted link works too: its last part is the slug (a shared one may carry ?ref=CODE).
  const text = given.trim();
  const wanted = (/\/capsules\/([^/?#]+)/.exec(text)?.[1] ?? text).toLowerCase();
  if (wanted === '') throw new UsageError(`Give the capsule's id (the first ${SHORT_ID_LENGTH} characters are enough) or its link.`);
  const exact = capsules.find((c) => c.id.toLowerCase() === wanted || c.slug.toLowerCase() === wanted || c.shareSlug.toLowerCase() === wanted);
  if (exact !== undefined) return exact;
  const matches = capsules.filter((c) => c.id.toLowerCase().startsWith(wanted));
  if (matches.length === 1) return matches[0]!;
  if (matches.length === 0) throw new AppError('NOT_FOUND', CAPSULE_NOT_FOUND);
  const shown = matches.slice(0, 3).map((c) => c.id).join(', ');
  throw new UsageError(`"${wanted}" is the start of ${matches.length} capsule ids (${shown}${matches.length > 3 ? ', …' : ''}). Give more of the id.`);
}
