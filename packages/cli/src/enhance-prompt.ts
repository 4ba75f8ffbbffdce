import { AppError, type EnhancementRequest } from '@wolfpack/core';
import { EMPTY_RESULT_MESSAGE, followEnhancement, reduceEnhance, startEnhance, type EnhanceView } from '@wolfpack/core/client';
import type { ApiClient } from './api.js';
import { apiTransport } from './api-transport.js';
import { explainLoggedOut, type CommandContext } from './context.js';
import { jsonEnhanceReporter, plainEnhanceReporter, type EnhanceReporter } from './enhance-report.js';
import { EXIT_INTERRUPTED, ExitCode } from './exit-code.js';
import { wantsColor } from './output.js';

/** How the enhancement is shown: the live grid, plain lines on stderr, or JSON lines on stdout. */
export type EnhanceDisplay = 'live' | 'plain' | 'json';

export interface EnhancePromptOptions {
  display: EnhanceDisplay;
  /** Silence (not even a heartbeat) for this long means the connection is dead. @default 45_000 */
  idleTimeoutMs?: number | undefined;
}

/**
 * Runs a multi-pass enhancement on the server (POST /api/multi-pass-enhancements), shows it, and
 * returns the prompt to use: the enhanced one, or the original when the result was empty (with a
 * warning on stderr). Ctrl+C stops it (the server stops an enhancement nobody waits for) and
 * exits 130. A failed enhancement, a dropped connection or a refusal is an AppError.
 */
export async function enhancePrompt(context: CommandContext, api: ApiClient, request: EnhancementRequest, options: EnhancePromptOptions): Promise<string> {
  const { io } = context;
  const color = wantsColor(io.stderr, io.env, context.globals.color);
  let state: EnhanceView = startEnhance(request.prompt);
  const reporter: EnhanceReporter =
    options.display === 'json'
      ? jsonEnhanceReporter(io.stdout)
      : options.display === 'live'
        ? (await import('./ui/enhance-view.js')).liveEnhanceReporter(io.stderr, state, color)
        : plainEnhanceReporter(io.stderr);

  const stop = new AbortController();
  const onSigint = () => {
    if (stop.signal.aborted) process.exit(EXIT_INTERRUPTED);
    stop.abort(new Error('cancelled'));
  };
  process.on('SIGINT', onSigint);
  try {
    for await (const item of followEnhancement({ transport: apiTransport(api), request, signal: stop.signal, idleTimeoutMs: options.idleTimeoutMs })) {
      state = reduceEnhance(state, item.event, Date.now());
      reporter.update(item, state);
    }
  } catch (error) {
    await reporter.close();
    if (stop.signal.aborted) {
      io.stderr.write('Enhancement cancelled.\n');
      throw new ExitCode(EXIT_INTERRUPTED);
    }
    throw explainLoggedOut(error, api.server);
  } finally {
    process.off('SIGINT', onSigint);
  }
  await reporter.close();

  if (state.outcome === null) throw new AppError('BAD_GATEWAY', `The server at ${api.server} ended the enhancement stream without a result. Try again.`);
  if (state.outcome === 'failed') throw new AppError(state.errorCode ?? 'INTERNAL', state.error ?? 'The enhancement failed.');
  if (state.outcome === 'kept-original') {
    const warning = `Warning: ${EMPTY_RESULT_MESSAGE}`;
    io.stderr.write(`${color && options.display !== 'json' ? `\u001B[33m${warning}\u001B[39m` : warning}\n`);
    return request.prompt;
  }
  return state.finalPrompt ?? request.prompt;
}
