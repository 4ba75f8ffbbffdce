/**
 * Runs the pipeline stream (spec core §7: POST /api/wolfpack/stream, or "Repair again": POST
 * /api/projects/{id}/repair, whose reply is the same stream) and keeps a run alive across
 * dropped connections and page reloads: every event carries an SSE `id:`, so the runner reattaches
 * with GET /api/wolfpack/runs/{id}/events and `Last-Event-ID`, and resumes a run the server left
 * interrupted with POST /api/wolfpack/runs/{id}/resume. Framework-free: the React hook subscribes
 * to it, tests drive it with a fake fetch.
 */
import { decodeEventStream, pipelineEvent, reconnectDelayMs, runInfoReply, type RunInfo } from '@wolfpack/core';
import {
  applyPipelineEvent,
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
  /** @default setTimeout-based */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /**
   * Waits before each reattach attempt; their count is the number of attempts.
   * @default five attempts, 500 ms doubling, each up to half as long again at random
   * (reconnectDelayMs): a restarted server's pages do not all come back in the same instant
   */
  reconnectDelaysMs?: readonly number[];
}

/** HTTP status of a request the balance cannot pay for. */
const PAYMENT_REQUIRED_STATUS = 402;
export const runUrl = (runId: string) => `/api/wolfpack/runs/${encodeURIComponent(runId)}`;

/** Reattach attempts when no delays are given: 15.5 to 23 s of trying. */
const DEFAULT_ATTEMPTS = 5;

type StreamOutcome = 'ended' | 'dropped' | 'aborted' | 'failed';

function defaultSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted || ms <= 0) return resolve();
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** The sentence of a non-ok JSON reply `{error}`, else its text, else undefined. */
export async function errorSentence(res: Response): Promise<string | undefined> {
  let text = '';
  try {
    text = (await res.text()).trim();
  } catch {
    return undefined;
  }
  if (!text) return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object' && 'error' in parsed) {
      const error = (parsed as { error: unknown }).error;
      if (typeof error === 'string' && error.trim()) return error;
    }
    return undefined;
  } catch {
    return text.startsWith('<') ? undefined : text;
  }
}

export class PipelineRunner {
  private state: PipelineState = initialPipelineState;
  private readonly listeners = new Set<() => void>();
  private controller: AbortController | undefined;
  /** What the newest start asked for, so a refusal is worded for it. */
  private startKind: RunStart['kind'] = 'build';
  private readonly deps: Required<Omit<PipelineRunnerDeps, 'onEffect' | 'notify' | 'reconnectDelaysMs'>> &
    Pick<PipelineRunnerDeps, 'onEffect' | 'notify' | 'reconnectDelaysMs'>;

  constructor(deps: PipelineRunnerDeps) {
    this.deps = { sleep: defaultSleep, ...deps };
  }

  readonly getState = (): PipelineState => this.state;

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private dispatch(action: PipelineAction): void {
    this.state = reducePipeline(this.state, action);
    for (const listener of this.listeners) listener();
  }

  private handleEvent(data: Parameters<typeof applyPipelineEvent>[1], id: string | undefined): void {
    const { state, effects } = applyPipelineEvent(this.state, data, id);
    this.state = state;
    for (const listener of this.listeners) listener();
    for (const effect of effects) this.deps.onEffect?.(effect);
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

  private begin(): AbortSignal {
    this.controller?.abort();
    this.controller = new AbortController();
    return this.controller.signal;
  }

  /** Starts a run (a build or a repair). Ignored while one is under way. */
  async start(source: RunStart): Promise<void> {
    if (isRunActive(this.state.phase)) return;
    const { url, body, onlyStages } = startRequest(source);
    this.startKind = source.kind;
    const signal = this.begin();
    this.dispatch({ type: 'start', onlyStages });
    let res: Response;
    try {
      res = await this.deps.fetch(url, {
        method: 'POST',
        credentials: 'include',
        headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream' },
        body: JSON.stringify(body),
        signal,
      });
    } catch (error) {
      if (signal.aborted) return;
      this.cannotStart(error instanceof Error && error.message ? error.message : undefined);
      return;
    }
    if (!res.ok) {
      if (res.status === 401) {
        this.dispatch({ type: 'unauthorized' });
        return;
      }
      this.cannotStart(await errorSentence(res), res.status === PAYMENT_REQUIRED_STATUS);
      return;
    }
    const outcome = await this.consume(res, signal);
    if (outcome === 'dropped') await this.recover(signal, false);
  }

  /**
   * Follows a run started earlier (the page was reloaded while it ran). A run the server no longer
   * knows is forgotten quietly: there is nothing the user could do about it.
   */
  async reattach(runId: string): Promise<void> {
    if (isRunActive(this.state.phase)) return;
    const signal = this.begin();
    this.dispatch({ type: 'attach', runId });
    this.log('info', 'Reconnecting to your run…');
    await this.recover(signal, true);
  }

  /** Tries again after reattaching gave up. */
  async reconnect(): Promise<void> {
    if (!this.state.runId || isRunActive(this.state.phase)) return;
    const signal = this.begin();
    await this.recover(signal, true);
  }

  /** Continues an interrupted run from its last finished stage. */
  async resume(): Promise<void> {
    const runId = this.state.runId;
    if (!runId || this.state.phase !== 'interrupted') return;
    const signal = this.begin();
    this.dispatch({ type: 'resuming' });
    this.log('info', 'Resuming the run from its last finished stage…');
    let res: Response;
    try {
      res = await this.deps.fetch(`${runUrl(runId)}/resume`, {
        method: 'POST',
        credentials: 'include',
        headers: this.lastEventHeaders({ Accept: 'text/event-stream' }),
        signal,
      });
    } catch {
      if (signal.aborted) return;
      this.dispatch({ type: 'interrupted' });
      this.failNotice('Could not reach the server to resume the run. Check your connection and try again.');
      return;
    }
    if (!res.ok) {
      if (res.status === 401) return this.dispatch({ type: 'unauthorized' });
      const sentence = await errorSentence(res);
      if (res.status === PAYMENT_REQUIRED_STATUS) {
        // Still not enough credits: the run stays resumable, with the link to Settings.
        this.dispatch({ type: 'interrupted', paymentRequired: true, ...(sentence ? { error: sentence } : {}) });
        this.failNotice(sentence ?? 'Not enough credits to resume the run. Add credits in Settings.', 'Not Enough Credits');
        return;
      }
      this.dispatch({ type: 'interrupted' });
      this.failNotice(sentence ?? 'The run could not be resumed. Start it again.');
      return;
    }
    const outcome = await this.consume(res, signal);
    if (outcome === 'dropped') await this.recover(signal, false);
  }

  private lastEventHeaders(extra: Record<string, string> = {}): Record<string, string> {
    const id = this.state.lastEventId;
    return id === null ? extra : { ...extra, 'Last-Event-ID': id };
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

  /**
   * Reads one event stream to its end. 'ended' after a complete or error event, 'dropped' when
   * the connection closed or broke first, 'failed' when the server sent something unreadable.
   *
   * A PAYMENT_REQUIRED error does not end the reading: in the replay of a run that was resumed
   * after a top-up, the events of the resumed part follow it. The stream ending right after it
   * means the run is still waiting for credits, which is an end too.
   */
  private async consume(res: Response, signal: AbortSignal): Promise<StreamOutcome> {
    if (!res.body) return 'dropped';
    try {
      for await (const { id, data } of decodeEventStream(res.body, pipelineEvent)) {
        if (signal.aborted) return 'aborted';
        this.handleEvent(data, id);
        if (data.type === 'complete') return 'ended';
        if (data.type === 'error' && data.code !== 'PAYMENT_REQUIRED') return 'ended';
      }
      if (!signal.aborted && this.state.paymentRequired) return 'ended';
    } catch (error) {
      if (signal.aborted) return 'aborted';
      // decodeEventStream names a protocol problem with an AppError; anything else is the network.
      if (error instanceof Error && error.name === 'AppError') {
        this.dispatch({ type: 'fail', error: error.message });
        this.failNotice(error.message);
        return 'failed';
      }
      return 'dropped';
    }
    return signal.aborted ? 'aborted' : 'dropped';
  }

  private async readRun(runId: string, signal: AbortSignal): Promise<RunInfo | number> {
    const res = await this.deps.fetch(runUrl(runId), { credentials: 'include', signal });
    if (!res.ok) return res.status;
    return runInfoReply.parse(await res.json()).run;
  }

  /**
   * Reattaches with backoff. `quiet` is for a page load: a run that no longer exists is simply
   * forgotten instead of reported.
   */
  private async recover(signal: AbortSignal, quiet: boolean): Promise<void> {
    const runId = this.state.runId;
    if (!runId) {
      // The connection broke before the server named the run: there is nothing to reattach to.
      this.cannotStart('The connection closed before the run started. Please try again.');
      return;
    }
    const delays = this.deps.reconnectDelaysMs;
    const attempts = delays?.length ?? DEFAULT_ATTEMPTS;
    if (!quiet) this.log('warning', 'Connection lost. Reconnecting…');
    let attempt = 0;
    while (attempt < attempts) {
      attempt += 1;
      this.dispatch({ type: 'reconnecting', attempt });
      const wait = delays ? (delays[attempt - 1] ?? 0) : reconnectDelayMs(attempt);
      await this.deps.sleep(quiet && attempt === 1 ? 0 : wait, signal);
      if (signal.aborted) return;
      try {
        const info = await this.readRun(runId, signal);
        if (info === 401) return this.dispatch({ type: 'unauthorized' });
        if (info === 404) {
          if (quiet) {
            this.dispatch({ type: 'reset' });
            this.deps.onEffect?.({ type: 'run-forgotten' });
            return;
          }
          this.dispatch({ type: 'fail', error: 'This run no longer exists on the server.' });
          this.failNotice('This run no longer exists on the server. Start a new run.');
          return;
        }
        if (typeof info === 'number') continue;
        const eventsSeen = this.state.lastEventId;
        const res = await this.deps.fetch(`${runUrl(runId)}/events`, {
          credentials: 'include',
          headers: this.lastEventHeaders({ Accept: 'text/event-stream' }),
          signal,
        });
        if (res.status === 401) return this.dispatch({ type: 'unauthorized' });
        if (!res.ok) continue;
        this.dispatch({ type: 'connected' });
        const outcome = await this.consume(res, signal);
        if (outcome !== 'dropped') return;
        if (info.status === 'interrupted') {
          // The server restarted mid-run: what it stored is replayed; the rest needs a resume.
          this.dispatch({ type: 'interrupted' });
          this.log('warning', 'The server stopped during this run. Resume it to continue from the last finished stage.');
          return;
        }
        // Events arrived before the drop: the connection works, so the attempts start over.
        if (this.state.lastEventId !== eventsSeen) attempt = 0;
      } catch {
        if (signal.aborted) return;
      }
    }
    this.dispatch({ type: 'disconnected' });
    this.log('error', 'Lost the connection to the run. Reconnect to follow it again.');
  }
}
