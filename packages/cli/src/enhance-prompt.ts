import { AppError, decodeEventStream, enhancementEvent, isAppError, type EnhancementRequest } from '@wolfpack/core';
import type { ApiClient } from './api.js';
import { explainLoggedOut, type CommandContext } from './context.js';
import { jsonEnhanceReporter, plainEnhanceReporter, type EnhanceItem, type EnhanceReporter } from './enhance-report.js';
import { EMPTY_RESULT_WARNING, initialEnhanceState, reduceEnhance, type EnhanceState } from './enhance-state.js';
import { EXIT_INTERRUPTED, ExitCode } from './exit-code.js';
import { wantsColor } from './output.js';
import { DEFAULT_IDLE_TIMEOUT_MS, IdleStreamError, untilIdle } from './run-stream.js';
import { liveEnhanceReporter } from './ui/enhance-view.js';

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
  let state: EnhanceState = initialEnhanceState();
  const reporter: EnhanceReporter =
    options.display === 'json'
      ? jsonEnhanceReporter(io.stdout)
      : options.display === 'live'
        ? liveEnhanceReporter(io.stderr, state, color)
        : plainEnhanceReporter(io.stderr);

  const stop = new AbortController();
  const onSigint = () => {
    if (stop.signal.aborted) process.exit(EXIT_INTERRUPTED);
    stop.abort(new Error('cancelled'));
  };
  process.on('SIGINT', onSigint);
  try {
    for await (const item of enhancementEvents(api, request, stop.signal, options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS)) {
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

  const { outcome } = state;
  if (outcome === undefined) throw new AppError('BAD_GATEWAY', `The server at ${api.server} ended the enhancement stream without a result. Try again.`);
  if (outcome.type === 'error') throw new AppError(outcome.code ?? 'INTERNAL', outcome.error);
  if (outcome.finalPrompt.trim() === '') {
    const warning = `Warning: ${EMPTY_RESULT_WARNING}`;
    io.stderr.write(`${color && options.display !== 'json' ? `\u001B[33m${warning}\u001B[39m` : warning}\n`);
    return request.prompt;
  }
  return outcome.finalPrompt;
}

/**
 * The enhancement's events, numbered as the server numbered them, up to and including `complete`
 * or `error`. There is nothing to reconnect to (the server stops an enhancement whose client
 * left), so a broken or silent connection ends it with a sentence that says to run it again.
 */
async function* enhancementEvents(api: ApiClient, request: EnhancementRequest, signal: AbortSignal, idleMs: number): AsyncGenerator<EnhanceItem, void, undefined> {
  const response = await api.stream('POST', '/api/multi-pass-enhancements', { body: request, signal });
  let count = 0;
  try {
    for await (const message of decodeEventStream(untilIdle(response.body, idleMs), enhancementEvent)) {
      count += 1;
      const id = Number(message.id);
      yield { id: Number.isSafeInteger(id) && id > 0 ? id : count, event: message.data };
      if (message.data.type === 'complete' || message.data.type === 'error') return;
    }
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    // An event this CLI cannot read is decodeEventStream's AppError, a sentence already.
    if (isAppError(error)) throw error;
    const reason = error instanceof IdleStreamError ? error.message : 'the connection broke';
    throw new AppError('BAD_GATEWAY', `Lost the connection to ${api.server} during the enhancement (${reason}). Run it again.`, undefined, { cause: error });
  }
}
