import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/core';
import { AppError, type PipelineEvent } from '@wolfpack/core';
import { databaseErrorText, isDatabaseUnreachable, isDiskFull } from '../../db/database-faults.js';
import { Conversation } from '../../entities/index.js';
import type { Logger } from '../../logger.js';
import type { RunBilling } from './run-billing.js';
import { describeWait, retryBriefly } from './run-database-retry.js';
import type { SqlAll } from './run-event-writer.js';
import type { RunHub } from './run-hub.js';
import type { FinishedStage } from './stage-commits.js';

/** A feed line that cannot be stored (see the log event's `live`). */
export const liveLine = (level: 'warning' | 'error', message: string): PipelineEvent => ({ type: 'log', id: randomUUID(), level, message, timestamp: new Date().toISOString(), live: true });

/**
 * What a run does when its database stops it: a database that stayed away past the run's window
 * leaves it interrupted (resumable) once it answers again; a full disk ends it at once, its
 * followers told why from memory. Never failed: nothing about the run was wrong.
 */
export class RunDatabaseStops {
  constructor(
    private readonly orm: MikroORM,
    private readonly sql: SqlAll,
    private readonly hub: RunHub,
    private readonly log: Logger,
    private readonly instanceId: string,
    private readonly windowMs: number,
    /** Told of every write refused for want of disk space (GET /api/health reports it). */
    private readonly onDiskFull: (error: unknown) => void = () => {},
  ) {}

  /** What the client is told when a run cannot even be stored (the insert of its row failed): a 503 with the reason, not a 500. */
  unstorable(error: unknown): AppError | undefined {
    if (isDiskFull(error)) {
      this.onDiskFull(error);
      return new AppError('SERVICE_UNAVAILABLE', `The server cannot store a new run: its database's disk is full (${databaseErrorText(error)}). Nothing was started or charged. Try again later.`);
    }
    if (isDatabaseUnreachable(error)) return new AppError('SERVICE_UNAVAILABLE', 'The server cannot reach its database right now, so the run was not started (nothing was charged). Try again in a minute.');
    return undefined;
  }

  /**
   * A run whose events (or stages) the database refused for want of disk space: it stops at once,
   * and its followers hear why from memory (nothing more of it can be stored). Only what was stored
   * was charged: the stages committed before. The holds of the rest go back, and the run is left
   * interrupted, when the database lets anything be written.
   */
  async stopUnstorable(runId: string, error: unknown, billing: RunBilling): Promise<void> {
    this.onDiskFull(error);
    this.log.error(`run ${runId}: the database cannot store it (${databaseErrorText(error)}); the run stopped`);
    const message = `The run stopped: the server could not store it, because its database's disk is full (${databaseErrorText(error)}). Nothing was charged for work that was not stored. Try again once the server has disk space.`;
    this.hub.end(runId, { type: 'error', error: message, code: 'SERVICE_UNAVAILABLE' });
    await retryBriefly(() => billing.releaseLeftoverHolds()).catch((e) => this.log.warn(`run ${runId}: releasing holds failed`, e));
    await retryBriefly(() => this.orm.em.fork().nativeUpdate(Conversation, { id: runId, instanceId: this.instanceId }, { status: 'interrupted', error: message, updatedAt: new Date() })).catch(
      (e) => this.log.warn(`run ${runId}: storing that it stopped failed`, e),
    );
  }

  /**
   * A run whose database stayed away past the window: it stops (the engines' work of the unfinished
   * stage is lost, nothing of it charged), its followers here hear so at once, and, whenever the
   * database answers again (until this server stops), it is left interrupted, resumable from its
   * last stored stage, the unfinished stage's holds go back, and `storeEnd` stores its error event.
   */
  async stopUntilDatabaseBack(runId: string, billing: RunBilling, signal: AbortSignal, storeEnd: (event: PipelineEvent) => boolean): Promise<void> {
    const window = describeWait(this.windowMs);
    this.log.warn(`run ${runId}: the database stayed unreachable for ${window}; the run stopped and is left interrupted once the database answers`);
    this.hub.notice(
      runId,
      liveLine('error', `The database stayed unreachable for ${window}, so the run stopped. Its finished stages are kept; once the database answers, the run is marked interrupted and can be resumed from its last finished stage.`),
    );
    const error = `The run stopped because the database was unreachable for more than ${window}. Its finished stages are kept and were charged once: resume it to continue from the last one.`;
    let left = false;
    for (let tries = 0; !signal.aborted; tries++) {
      try {
        // Fenced: a run another server took over meanwhile is that server's, holds and all.
        left ||= (await this.orm.em.fork().nativeUpdate(Conversation, { id: runId, instanceId: this.instanceId, status: 'running' }, { status: 'interrupted', error, updatedAt: new Date() })) > 0;
        if (!left) return;
        await billing.releaseLeftoverHolds();
        break;
      } catch (e) {
        if (!isDatabaseUnreachable(e)) {
          this.log.warn(`run ${runId}: leaving it interrupted failed`, e);
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, Math.min(2000, 100 * 2 ** tries)));
      }
    }
    if (!signal.aborted) storeEnd({ type: 'error', error, code: 'SERVICE_UNAVAILABLE' });
  }

  /** Whether `stages` are committed (the last one's usage rows are in) and the run is still this process's. */
  async committed(runId: string, stages: FinishedStage[]): Promise<boolean> {
    const rows = await this.sql('select u.id from engine_usage u join conversations c on c.id = u.conversation_id where u.conversation_id = ? and u.call_key like ? and c.instance_id = ? limit 1', [
      runId,
      `${stages.at(-1)!.holds.key}:%`,
      this.instanceId,
    ]);
    return rows.length > 0;
  }
}
