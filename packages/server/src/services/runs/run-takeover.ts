import type { Logger } from '../../logger.js';
import { LeaseLostError, type SqlAll } from './run-event-writer.js';
import type { RunLauncher } from './run-launcher.js';
import type { RunLeases } from './run-leases.js';
import type { RunNotifier } from './run-notifier.js';

/** A run that kills its server every time is not taken over forever. */
export const MAX_TAKEOVERS = 3;
/** Runs one process takes over per lease scan (others are left to the other processes). */
const CLAIM_BATCH = 4;

export interface RunTakeoverParts {
  launcher: RunLauncher;
  leases: RunLeases;
  notifier: RunNotifier;
  log: Logger;
  sql: SqlAll;
  instanceId: string;
  /** PGlite: one process owns the data directory, so every running run found at start-up is orphaned. */
  orphansAtStart: boolean;
}

/**
 * This process's share of the runs' leases: renews the leases of its runs every third of a lease,
 * stops a run another process took from it, takes over runs whose process died, and gives its
 * runs back at shutdown.
 */
export class RunTakeover {
  private ticker: NodeJS.Timeout | undefined;
  /** The lease renewal and takeover under way, if any: shutdown waits for it (see stop). */
  private ticking: Promise<void> | undefined;

  constructor(private readonly parts: RunTakeoverParts) {}

  /**
   * Takes over orphaned runs, then renews this process's leases and watches for expired ones.
   * `closing` already aborted (asked to close while starting): none of that, as the process may be
   * killed before it gives back a run it took.
   */
  async startBackgroundWork(closing?: AbortSignal): Promise<void> {
    await this.parts.notifier.start();
    if (closing?.aborted) return;
    if (this.parts.orphansAtStart) {
      for (let claimed = await this.takeOver(true); claimed > 0; claimed = await this.takeOver(true));
    } else {
      await this.takeOver(false);
    }
    const every = Math.max(100, Math.floor(this.parts.leases.leaseMs / 3));
    this.ticker = setInterval(() => {
      if (this.ticking) return;
      this.ticking = this.tick()
        .catch((e) => this.parts.log.warn('run lease renewal failed', e))
        .finally(() => (this.ticking = undefined));
    }, every);
    this.ticker.unref();
  }

  private async tick(): Promise<void> {
    const local = this.parts.launcher.local;
    const mine = [...local.entries()].filter(([, run]) => run.stored).map(([id]) => id);
    const held = await this.parts.leases.renew(mine);
    for (const id of mine) {
      // Another process owns it now (this one stalled past its lease): stop, change nothing.
      if (!held.has(id)) local.get(id)?.controller.abort(new LeaseLostError(`run ${id} was taken over by another server`));
    }
    await this.takeOver(false);
  }

  /** Claims runs whose process died and continues them here. Answers how many were claimed. */
  private async takeOver(orphaned: boolean): Promise<number> {
    const { launcher, log } = this.parts;
    const claimed = await this.parts.leases.claimExpired(CLAIM_BATCH, orphaned, [...launcher.local.keys()]);
    for (const run of claimed) {
      if (run.takeovers > MAX_TAKEOVERS) {
        const error = `The server stopped ${MAX_TAKEOVERS + 1} times during this run, so it was not continued again. Resume it to try once more.`;
        log.warn(`run ${run.id}: not taken over again after ${MAX_TAKEOVERS} takeovers`);
        await this.parts.sql(`update conversations set status = 'interrupted', error = ?, updated_at = now() where id = ? and instance_id = ? returning id`, [error, run.id, this.parts.instanceId]);
        await this.parts.notifier.notify(run.id);
        continue;
      }
      log.info(`run ${run.id}: its server stopped; continuing it here`);
      launcher.launch(run.id, undefined, (await launcher.lastSeq(run.id)) + 1, 'takeover', run.attempt);
    }
    return claimed.length;
  }

  /**
   * Shutdown: this process's runs stop at once, their stored events are flushed, and their leases
   * are released, so another process (or this one's next start) continues them.
   */
  async stop(): Promise<void> {
    clearInterval(this.ticker);
    // A takeover under way (of a run another closing process just released) would launch its run
    // after the list below is taken, and leave it running with its lease held.
    await this.ticking;
    const runs = [...this.parts.launcher.local.entries()];
    for (const [, run] of runs) run.controller.abort(new Error('server shutting down'));
    await Promise.race([Promise.allSettled(runs.map(([, run]) => run.done)), new Promise((resolve) => setTimeout(resolve, 5000).unref())]);
    await this.parts.leases.release(runs.map(([id]) => id)).catch((e) => this.parts.log.warn('releasing run leases failed', e));
    await this.parts.notifier.close();
  }
}
