import type { MikroORM } from '@mikro-orm/core';
import { AppError, type PipelineEvent, type RunInfo } from '@wolfpack/core';
import { Conversation } from '../../entities/index.js';
import { isUuid } from '../projects/project-service.js';
import type { SqlAll } from './run-event-writer.js';
import { NOTICE, type RunHub } from './run-hub.js';
import { ANY_RUN, type RunNotifier } from './run-notifier.js';

type Owner = { id: string };
/** A stopped run's last event may still be on its way (write-behind) for this long. */
const SETTLE_MS = 3000;
/** Stored events replayed per query. */
const PAGE = 500;

/**
 * The read side of runs: a run's status and its events for a follower, from the database and, for
 * runs of this process, live from the hub; runs of other processes through the notifier.
 */
export class RunReader {
  constructor(
    private readonly orm: MikroORM,
    private readonly sql: SqlAll,
    private readonly hub: RunHub,
    private readonly notifier: RunNotifier,
    /** Whether this process runs the run (its live events come from the hub). */
    private readonly isLocal: (runId: string) => boolean,
  ) {}

  /** The newest stored event's number (0 before any) and type. */
  async lastEvent(runId: string): Promise<{ seq: number; type: string | null }> {
    const rows = await this.sql<{ seq: number; type: string | null }>(
      `select seq, data->>'type' as type from run_events where conversation_id = ? order by seq desc limit 1`,
      [runId],
    );
    return { seq: Number(rows[0]?.seq ?? 0), type: rows[0]?.type ?? null };
  }

  /**
   * Throws "Run not found" unless the run is the user's: one plain select, no entity (every
   * stream opened asks, and a crowd of followers opens streams at once).
   */
  async assertOwned(user: Owner, runId: string): Promise<void> {
    const rows = isUuid(runId) ? await this.sql<{ id: string }>('select id from conversations where id = ? and user_id = ?', [runId, user.id]) : [];
    if (rows.length === 0) throw new AppError('NOT_FOUND', 'Run not found');
  }

  async getOwned(user: Owner, runId: string) {
    const row = isUuid(runId) ? await this.orm.em.fork().findOne(Conversation, { id: runId, userId: user.id }) : null;
    if (!row) throw new AppError('NOT_FOUND', 'Run not found');
    return row;
  }

  async info(user: Owner, runId: string): Promise<RunInfo> {
    const row = await this.getOwned(user, runId);
    return {
      id: row.id,
      conversationId: row.id,
      idea: row.idea,
      status: row.status,
      projectId: row.status === 'completed' ? (row.projectId ?? null) : null,
      lastEventId: (await this.lastEvent(runId)).seq,
      createdAt: row.createdAt.toISOString(),
      ...(row.onlyStages ? { stages: row.onlyStages } : {}),
      error: row.error ?? null,
    };
  }

  /**
   * Whether a follower of a run run elsewhere has seen its end: the run stopped and its last
   * stored event is its end (or the run stopped long enough ago that nothing more is coming).
   */
  private async hasEnded(user: Owner, runId: string, after: number): Promise<boolean | 'more'> {
    const row = await this.getOwned(user, runId);
    if (row.status === 'running') return false;
    const last = await this.lastEvent(runId);
    if (last.seq > after) return 'more';
    return last.type === 'complete' || last.type === 'error' || row.updatedAt.getTime() < Date.now() - SETTLE_MS;
  }

  /**
   * The run's events after `afterSeq`: stored ones first, then new ones as they come, until the
   * run ends. Live events of a run in this process come from memory once stored; a run of another
   * process (or one about to be taken over) is followed through the notifier, with a slow poll
   * in case a notice was lost. A notice the hub sends (an event that could not be stored) comes
   * numbered as the last event before it, so that Last-Event-ID stays right; an `error` one ends
   * the stream (the run stopped, and the database does not know it yet).
   */
  async *events(user: Owner, runId: string, afterSeq: number, signal: AbortSignal, checked = false): AsyncGenerator<{ seq: number; event: PipelineEvent }> {
    if (!checked) await this.assertOwned(user, runId);
    let after = afterSeq;
    while (!signal.aborted) {
      const live: Array<{ seq: number; event: PipelineEvent }> = [];
      let ended = false;
      let poked = false;
      let wake: () => void = () => {};
      // Subscribe before reading the database: an event stored meanwhile is then in `live`.
      const unsubscribe = this.hub.subscribe(runId, (seq, event) => {
        live.push({ seq, event });
        wake();
      });
      const unEnd = this.hub.onEnd(runId, () => {
        ended = true;
        wake();
      });
      const unNotify = this.notifier.subscribe((id) => {
        if (id !== runId && id !== ANY_RUN) return;
        poked = true;
        wake();
      });
      const onAbort = () => wake();
      signal.addEventListener('abort', onAbort);
      try {
        // A run of this process replays from the hub's memory when the hub has every event
        // needed: no query at all for a crowd opening streams on a live run. Otherwise (an older
        // event, a run of another process, a run that just ended) from the database.
        const fromMemory = this.isLocal(runId) ? this.hub.eventsAfter(runId, after) : undefined;
        let page = 0;
        for (const next of fromMemory ?? (await this.storedAfter(runId, after))) {
          after = next.seq;
          page++;
          yield next;
        }
        if (!fromMemory && page === PAGE) continue;
        if (this.isLocal(runId)) {
          while (!signal.aborted) {
            for (let next = live.shift(); next; next = live.shift()) {
              if (next.seq === NOTICE) {
                yield { seq: after, event: next.event };
                if (next.event.type === 'error') return;
                continue;
              }
              if (next.seq <= after) continue;
              after = next.seq;
              yield next;
            }
            if (ended) break;
            await new Promise<void>((resolve) => {
              wake = resolve;
              if (live.length > 0 || ended || signal.aborted) resolve();
            });
          }
          continue; // one more look at the database, then the run's final status
        }
        const end = await this.hasEnded(user, runId, after);
        if (end === true) return;
        // The run stopped here without storing its end: what it said instead.
        const lastWords = end === false ? this.hub.lastWordsOf(runId) : undefined;
        if (lastWords) {
          yield { seq: after, event: lastWords };
          return;
        }
        if (end === 'more') continue;
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, this.notifier.fallbackPollMs);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
          if (signal.aborted || poked || live.length > 0 || ended) wake();
        });
      } finally {
        signal.removeEventListener('abort', onAbort);
        unsubscribe();
        unEnd();
        unNotify();
      }
    }
  }

  /**
   * One page of the run's stored events after `afterSeq`. A plain select, not the ORM's find:
   * MikroORM was 14 % of the server's CPU samples while 1,000 streams opened (a profile of pnpm
   * bench sse); hydrating rows costs more than the query (db/plain-sql.ts).
   */
  private async storedAfter(runId: string, afterSeq: number): Promise<Array<{ seq: number; event: PipelineEvent }>> {
    const rows = await this.sql<{ seq: number; data: PipelineEvent }>(
      `select seq, data from run_events where conversation_id = ? and seq > ? order by seq limit ${PAGE}`,
      [runId, afterSeq],
    );
    return rows.map((row) => ({ seq: Number(row.seq), event: row.data }));
  }
}
