import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { Engine, EngineRequest, EngineResult } from '@wolfpack/core/engines';
import { yieldToIo } from './run-event-writer.js';

/** Published by Node's fetch (undici) once a request's body is on the socket. */
const REQUEST_SENT = 'undici:request:bodySent';
/** A call whose request this process's fetch did not report sent by then is taken as sent (another HTTP client). */
const SEND_TIMEOUT_MS = 50;

const sentListeners = new Set<() => void>();
const onRequestSent = () => {
  for (const listener of [...sentListeners]) listener();
};

/**
 * When a run's background database work (its events, its stage commits) should happen. With the
 * embedded database every query runs on the server's own thread, so a commit that starts while the
 * next stage prepares its engine requests holds them back for its whole length, and that time adds
 * straight to the run. The work therefore waits for a moment when the engines are busy anyway
 * (every call started has its request on the wire), for an urgent need, for the run's end, or at
 * most a set time.
 */
export class EngineActivity {
  private inFlight = 0;
  private unsent = 0;
  private ended = false;
  private sendTimer: NodeJS.Timeout | undefined;
  private readonly waiters = new Set<() => void>();
  private readonly sent = () => {
    this.unsent = Math.max(0, this.unsent - 1);
    if (this.unsent === 0) this.stopListening();
    this.release();
  };

  /** The same engines, reporting here when their calls start and end. */
  watch(engines: readonly Engine[]): Engine[] {
    return engines.map(
      (engine) =>
        new Proxy(engine, {
          get: (target, key) => (key === 'complete' ? (request: EngineRequest) => this.call(target, request) : Reflect.get(target, key)),
        }),
    );
  }

  /**
   * Resolves once the engines are busy (a call in flight, its request sent), after {@link wake}
   * or {@link end}, or after `maxWaitMs` at the latest.
   */
  async quiet(maxWaitMs: number): Promise<void> {
    if (!this.busy()) {
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          this.waiters.delete(done);
          resolve();
        };
        const timer = setTimeout(done, maxWaitMs);
        this.waiters.add(done);
      });
    }
    await yieldToIo();
  }

  /** Lets whatever waits in {@link quiet} go now. */
  wake(): void {
    for (const waiter of [...this.waiters]) waiter();
  }

  /** No more engine calls will come (the pipeline ended): nothing waits any more. */
  end(): void {
    this.ended = true;
    this.stopListening();
    this.wake();
  }

  private busy(): boolean {
    return this.ended || (this.inFlight > 0 && this.unsent === 0);
  }

  private release(): void {
    if (this.busy()) this.wake();
  }

  private async call(engine: Engine, request: EngineRequest): Promise<EngineResult> {
    this.inFlight++;
    this.unsent++;
    if (sentListeners.size === 0) subscribe(REQUEST_SENT, onRequestSent);
    sentListeners.add(this.sent);
    clearTimeout(this.sendTimer);
    this.sendTimer = setTimeout(() => {
      this.unsent = 0;
      this.stopListening();
      this.release();
    }, SEND_TIMEOUT_MS);
    try {
      return await engine.complete(request);
    } finally {
      this.inFlight--;
    }
  }

  private stopListening(): void {
    clearTimeout(this.sendTimer);
    sentListeners.delete(this.sent);
    if (sentListeners.size === 0) unsubscribe(REQUEST_SENT, onRequestSent);
  }
}
