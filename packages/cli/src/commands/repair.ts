import { resolve } from 'node:path';
import { repairRequest, type RepairRequestInput } from '@wolfpack/core';
import { loggedInApi, type CommandContext } from '../context.js';
import { checkEngines } from '../engine-check.js';
import { followToEnd, type FollowOptions } from '../follow-run.js';
import { resolveProjectId } from '../resources.js';
import { UsageError } from '../usage-error.js';
import { checkOutputDir } from '../write-project.js';

export interface RepairOptions extends FollowOptions {
  /** Engine keys in the order the repair rounds use them; empty lets the server choose. */
  engines?: string[] | undefined;
  /** `--max-cost CENTS`: the most the run may spend; a stage that could pass it is stopped before it calls any engine. */
  maxCost?: number | undefined;
}

/**
 * `wolfpack repair PROJECT_ID`: "Repair again" after a failed Proven Code gate. A new run of the
 * Proven Code stage alone (its repair rounds) on the project's current files, reserved and charged
 * like any stage, followed with the same view, summary and exit codes as `build`. The server
 * refuses (exit 1, its sentence as it came) when the verdict is not failed or another run is
 * working on the project.
 */
export async function repair(id: string, options: RepairOptions, context: CommandContext): Promise<void> {
  const body: RepairRequestInput = { modelOrder: options.engines ?? [] };
  if (options.maxCost !== undefined) body.maxCostCents = options.maxCost;
  const parsed = repairRequest.safeParse(body);
  if (!parsed.success) throw new UsageError(parsed.error.issues[0]?.message ?? 'The request is not valid.');
  const request = parsed.data;

  const out = options.out === undefined ? undefined : resolve(context.io.cwd, options.out);
  if (out !== undefined) await checkOutputDir(out, { force: options.force });

  const api = await loggedInApi(context);
  const projectId = await resolveProjectId(api, id);
  await checkEngines(context, api, request.modelOrder);

  await followToEnd(context, api, { kind: 'repair', projectId, request }, { ...options, out });
}
