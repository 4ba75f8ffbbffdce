import { verificationReply, type VerificationRecord } from '@wolfpack/core';
import { loggedInApi, spinnerOptions, type CommandContext } from '../context.js';
import { ExitCode } from '../exit-code.js';
import { recordLines, verdictExitCode } from '../proof-report.js';
import { explained, resolveProjectId } from '../resources.js';
import { withSpinner } from '../ui/spinner.js';

/**
 * A re-check runs the project in the server's sandbox (the server allows it ~30 s, a page load in
 * Chromium included); the CLI's usual 30 s would give up just before a slow one answers.
 */
const RECHECK_TIMEOUT_MS = 120_000;

export interface VerifyOptions {
  /** false for `--no-recheck`: print the stored record instead of checking again. @default true */
  recheck?: boolean | undefined;
}

/**
 * `wolfpack verify ID`: runs every Proven Code check again on the project's current files (POST
 * /api/projects/{id}/verification: static checks and the sandboxed run; no engine, nothing
 * charged) and prints each check and the verdict. `--no-recheck` prints the stored record (GET).
 * `--json` prints the record alone (`null` when there is none). The exit code is the verdict's:
 * 0 passed, 3 failed, 5 not proven or no record.
 */
export async function verify(id: string, options: VerifyOptions, context: CommandContext): Promise<void> {
  const api = await loggedInApi(context);
  const projectId = await resolveProjectId(api, id);
  const path = `/api/projects/${encodeURIComponent(projectId)}/verification`;
  const { verification } =
    options.recheck === false
      ? await explained(api, () => api.get(path, { reply: verificationReply }))
      : await withSpinner(
          'Re-checking: every check again on the current files',
          () => explained(api, () => api.post(path, { body: {}, reply: verificationReply, timeoutMs: RECHECK_TIMEOUT_MS })),
          spinnerOptions(context),
        );
  print(context, projectId, verification);
  const code = verdictExitCode(verification?.verdict ?? 'unknown');
  if (code !== 0) throw new ExitCode(code);
}

function print(context: CommandContext, projectId: string, record: VerificationRecord | null): void {
  const { io, output } = context;
  if (output.json) {
    io.stdout.write(`${JSON.stringify(record)}\n`);
    return;
  }
  if (record === null) {
    io.stdout.write(`No verification record for this version yet. Check it now with: wolfpack verify ${projectId}\n`);
    return;
  }
  io.stdout.write(`${recordLines(record, (format, text) => output.style(format, text)).join('\n')}\n`);
}
