/**
 * The build screen's run over core's run client (`followRun`): starts a build or "Repair again",
 * follows the run across dropped connections and page reloads, resumes an interrupted run on
 * request, and words in the page's own terms (feed lines, toasts, phases) what the client reports.
 * Framework-free: the React hook subscribes to it, tests drive it with a fake fetch.
 */
import { isAppError } from '@wolfpack/core';
import { fetchTransport, followRun, RunFollowError, ServerRefusal, StreamDecodeError, type FollowRunOptions, type RunSource } from '@wolfpack/core/client';
import {
  applyRunItem,
  clientFeedItem,
  initialPipelineState,
  isRunActive,
  reducePipeline,
  type FeedItem,
  type PipelineAction,
  type PipelineState,
  type RunEffect,
} from './pipeline-state';
import { startRequest, type RunStart } from './run-start';

export { errorSentence } from '@wolfpack/core/client';

/** A toast the runner asks for. */
export interface RunnerNotice {
  title: string;
  description?: string;
  variant?: 'default' | 'destructive';
}

export interface PipelineRunnerDeps {
  fetch: typeof fetch;
  /** Carries out what an event calls for (storage, counters, toasts, cache refresh). */
  onEffect?: (effect: RunEffect) => void;
  /** Shows a toast for the client's own failures. */
  notify?: (notice: RunnerNotice) => void;
  /** Waits before a reconnect attempt; tests pass one that does not sleep. */
  sleep?: FollowRunOptions['sleep'];
  /** Wait before reconnect attempt n (from 1). @default core's reconnectWaitMs */
  backoff?: FollowRunOptions['backoff'];
  /** Attempts in a row before the page gives up and offers Reconnect. @default 5 (16 to 31 s of trying) */
  maxReconnects?: number;
}

const DEFAULT_ATTEMPTS = 5;

export class PipelineRunner {
  private state: PipelineState = initialPipelineState;
  private readonly listeners = new Set<() => void>();
  private controller: AbortController | undefined;
  /** What the newest start asked for, so a refusal is worded for it. */
  private startKind: RunStart['kind'] = 'build';

  constructor(private readonly deps: PipelineRunnerDeps) {}

  readonly getState = (): PipelineState => this.state;

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private set(state: PipelineState): void {
    this.state = state;
    for (const listener of this.listeners) listener();
  }

  private dispatch(action: PipelineAction): void {
    this.set(reducePipeline(this.state, action));
  }

  /** Adds a client message to the Activity Feed. */
  log(type: FeedItem['type'], message: string): void {
    this.dispatch({ type: 'log', item: clientFeedItem(type, message) });
  }

  /** Adds a feed item that already has its id and time (AI Enhance's lines share the feed). */
  pushFeed(item: FeedItem): void {
    this.dispatch({ type: 'log', item });
  }

  clearFeed(): void {
    this.dispatch({ type: 'clear-feed' });
  }

  /** Hides the success banner (Continue Building); the result stays known. */
  dismissResult(): void {
    this.dispatch({ type: 'dismiss-result' });
  }

  /** Stops listening (the run goes on on the server) and forgets the run. */
  reset(): void {
    this.controller?.abort();
    this.controller = undefined;
    this.dispatch({ type: 'reset' });
  }

  /** Starts a run (a build or a repair). Ignored while one is under way. */
  async start(source: RunStart): Promise<void> {
    if (isRunActive(this.state.phase)) return;
    const { url, body, onlyStages } = startRequest(source);
    this.startKind = source.kind;
    this.dispatch({ type: 'start', onlyStages });
    await this.follow({ kind: 'open', path: url, body }, false);
  }

  /**
   * Follows a run started earlier (the page was reloaded while it ran). A run the server no longer
   * knows is forgotten quietly: there is nothing the user could do about it.
   */
  async reattach(runId: string): Promise<void> {
    if (isRunActive(this.state.phase)) return;
    this.dispatch({ type: 'attach', runId });
    this.log('info', 'Reconnecting to your run…');
    await this.follow({ kind: 'attach', runId }, true);
  }

  /** Tries again after reattaching gave up. */
  async reconnect(): Promise<void> {
    const { runId } = this.state;
    if (!runId || isRunActive(this.state.phase)) return;
    this.dispatch({ type: 'reconnecting', attempt: 1 });
    await this.follow({ kind: 'attach', runId, after: this.state.lastEventId }, false);
  }

  /** Continues an interrupted run from its last finished stage. */
  async resume(): Promise<void> {
    const { runId } = this.state;
    if (!runId || this.state.phase !== 'interrupted') return;
    this.dispatch({ type: 'resuming' });
    this.log('info', 'Resuming the run from its last finished stage…');
    await this.follow({ kind: 'resume', runId, after: this.state.lastEventId }, false);
  }

  /** Follows `source` to the run's end, or until it stops short; `quiet`: a page load's reattach. */
  private async follow(source: RunSource, quiet: boolean): Promise<void> {
    this.controller?.abort();
    const controller = new AbortController();
    this.controller = controller;
    const { signal } = controller;
    let warned = false;
    try {
      for await (const item of followRun({
        transport: fetchTransport(this.deps.fetch, { init: { credentials: 'include' } }),
        source,
        signal,
        autoResume: false,
        maxReconnects: this.deps.maxReconnects ?? DEFAULT_ATTEMPTS,
        backoff: this.deps.backoff,
        sleep: this.deps.sleep,
      })) {
        if (signal.aborted) return;
        const { state, effects } = applyRunItem(this.state, item);
        this.set(state);
        for (const effect of effects) this.deps.onEffect?.(effect);
        if (item.type === 'reconnecting' && !warned && !quiet) {
          warned = true;
          this.log('warning', 'Connection lost. Reconnecting…');
        }
        if (item.type === 'interrupted') this.log('warning', 'The server stopped during this run. Resume it to continue from the last finished stage.');
      }
    } catch (error) {
      if (signal.aborted) return;
      this.stoppedShort(source, error, quiet);
    }
  }

  /** Words why following stopped before the run's end, as the page shows it. */
  private stoppedShort(source: RunSource, error: unknown, quiet: boolean): void {
    if (error instanceof RunFollowError) {
      switch (error.failure) {
        case 'no-run-id':
          return this.cannotStart('The connection closed before the run started. Please try again.');
        case 'gave-up':
          this.dispatch({ type: 'disconnected' });
          return this.log('error', 'Lost the connection to the run. Reconnect to follow it again.');
        case 'not-found':
          if (quiet) {
            this.dispatch({ type: 'reset' });
            return this.deps.onEffect?.({ type: 'run-forgotten' });
          }
          this.dispatch({ type: 'fail', error: 'This run no longer exists on the server.' });
          return this.failNotice('This run no longer exists on the server. Start a new run.');
        case 'interrupted-again':
          return this.dispatch({ type: 'interrupted' });
        default: {
          const unreachable: never = error.failure;
          return unreachable;
        }
      }
    }
    if (error instanceof StreamDecodeError) {
      // The server sent something this page cannot read: retrying would read it again.
      this.dispatch({ type: 'fail', error: error.message });
      return this.failNotice(error.message);
    }
    const code = isAppError(error) ? error.code : undefined;
    if (code === 'UNAUTHORIZED') return this.dispatch({ type: 'unauthorized' });
    const sentence = error instanceof ServerRefusal ? error.sentence : isAppError(error) ? error.message : undefined;
    // No answer at all (fetchTransport's SERVICE_UNAVAILABLE), as opposed to the server's refusal.
    const unreachable = code === 'SERVICE_UNAVAILABLE' && !(error instanceof ServerRefusal);
    if (source.kind === 'open') return this.cannotStart(unreachable ? undefined : sentence, code === 'PAYMENT_REQUIRED');
    if (source.kind === 'resume') {
      if (code === 'PAYMENT_REQUIRED') {
        // Still not enough credits: the run stays resumable, with the link to Settings.
        this.dispatch({ type: 'interrupted', paymentRequired: true, ...(sentence ? { error: sentence } : {}) });
        return this.failNotice(sentence ?? 'Not enough credits to resume the run. Add credits in Settings.', 'Not Enough Credits');
      }
      this.dispatch({ type: 'interrupted' });
      if (unreachable) return this.failNotice('Could not reach the server to resume the run. Check your connection and try again.');
      return this.failNotice(sentence ?? 'The run could not be resumed. Start it again.');
    }
    // An event the page cannot read, or a refusal while reattaching.
    const message = sentence ?? 'The run could not be followed.';
    this.dispatch({ type: 'fail', error: message });
    this.failNotice(message);
  }

  /**
   * 'Failed to start pipeline stream' in the feed, then the 'Pipeline Failed' toast (for a repair,
   * 'Repair Not Started': a refused repair, such as one with nothing to repair, is not a failed
   * pipeline). The server's sentence is shown as it came.
   */
  private cannotStart(sentence: string | undefined, paymentRequired = false): void {
    const repair = this.startKind === 'repair';
    const message = repair ? 'Failed to start the repair run' : 'Failed to start pipeline stream';
    this.log('error', message);
    this.dispatch({ type: 'fail', error: sentence ?? message, paymentRequired });
    this.deps.notify?.({
      title: repair ? 'Repair Not Started' : 'Pipeline Failed',
      description: sentence ?? 'The server could not be reached. Check your connection and try again.',
      variant: 'destructive',
    });
  }

  private failNotice(description: string, title = 'Pipeline Failed'): void {
    this.log('error', `Error: ${description}`);
    this.deps.notify?.({ title, description, variant: 'destructive' });
  }
}
