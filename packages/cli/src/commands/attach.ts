import { resolve } from 'node:path';
import { loggedInApi, type CommandContext } from '../context.js';
import { followToEnd, type FollowOptions } from '../follow-run.js';
import { UsageError } from '../usage-error.js';
import { checkOutputDir } from '../write-project.js';

export interface AttachOptions extends FollowOptions {
  /** Replay only the events after this one. @default 0 (everything, so the view is complete) */
  since?: number | undefined;
}

/**
 * `wolfpack attach RUN_ID`: follows a run started earlier (by `build`, or in the web app) with the
 * same view and exit codes as `build`. It replays the run's events from the start, so the view is
 * complete; a run the server reports as interrupted is resumed; a finished one is shown as it
 * ended, and its files can still be written with `--out`.
 */
export async function attach(runId: string, options: AttachOptions, context: CommandContext): Promise<void> {
  const id = runId.trim();
  if (id === '') throw new UsageError('Give the id of the run to attach to, as printed when it started.');
  const out = options.out === undefined ? undefined : resolve(context.io.cwd, options.out);
  if (out !== undefined) await checkOutputDir(out, { force: options.force });

  const api = await loggedInApi(context);
  await followToEnd(context, api, { kind: 'attach', runId: id, after: options.since ?? 0 }, { ...options, out });
}
