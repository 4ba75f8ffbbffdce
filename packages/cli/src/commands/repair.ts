import { resolve } from 'node:path';
import { AppError, repairRequest, verificationReply, type RepairRequestInput, type VerificationVerdict } from '@wolfpack/core';
import type { ApiClient } from '../api.js';
import { loggedInApi, type CommandContext } from '../context.js';
import { demoNotice, knownEngines } from '../engine-check.js';
import { followToEnd, type FollowOptions } from '../follow-run.js';
import { explained, resolveProjectId } from '../resources.js';
import { schemaUsageError } from '../usage-error.js';
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
 * like any stage, followed with the same view, summary and exit codes as `build`. A project that
 * is not the user's, or has nothing to repair, is refused (exit 1) before anything else is printed;
 * the server refuses too (its sentence as it came) when another run is working on the project.
 */
export async function repair(id: string, options: RepairOptions, context: CommandContext): Promise<void> {
  const body: RepairRequestInput = { modelOrder: options.engines ?? [] };
  if (options.maxCost !== undefined) body.maxCostCents = options.maxCost;
  const parsed = repairRequest.safeParse(body);
  if (!parsed.success) throw schemaUsageError(parsed.error, 'The request is not valid.');
  const request = parsed.data;

  const out = options.out === undefined ? undefined : resolve(context.io.cwd, options.out);
  if (out !== undefined) await checkOutputDir(out, { force: options.force });

  const api = await loggedInApi(context);
  const projectId = await resolveProjectId(api, id);
  const engines = await knownEngines(api, request.modelOrder);
  await checkRepairable(api, projectId);
  demoNotice(context, engines);

  await explained(api, () => followToEnd(context, api, { kind: 'repair', projectId, request }, { ...options, out }));
}

/**
 * Refuses, in the CLI's words, what the server would refuse in its web page's: a project that is
 * not the user's (a full id is not looked up in their list) and one whose current verdict is not
 * failed. The server still decides, under its lock; this only says it first, before the demo
 * engines' note, and points to `wolfpack verify` rather than to a tab.
 */
async function checkRepairable(api: ApiClient, projectId: string): Promise<void> {
  const { verification } = await explained(api, () => api.get(`/api/projects/${encodeURIComponent(projectId)}/verification`, { reply: verificationReply }));
  const refusal = nothingToRepair(projectId, verification?.verdict);
  if (refusal !== undefined) throw new AppError('CONFLICT', refusal);
}

function nothingToRepair(projectId: string, verdict: VerificationVerdict | undefined): string | undefined {
  if (verdict === 'passed') return 'This project passed Proven Code: there is nothing to repair.';
  if (verdict === 'unproven') {
    return `Nothing in this project failed Proven Code, so there is nothing to repair. \`wolfpack verify ${projectId}\` checks it again and names what could not run.`;
  }
  return undefined;
}
