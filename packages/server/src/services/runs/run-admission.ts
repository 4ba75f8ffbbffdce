import type { MikroORM } from '@mikro-orm/core';
import { AppError } from '@wolfpack/core';
import type { RunService } from './run-service.js';
import type { Sql } from '../../db/plain-sql.js';

/** The 429's sentence, with the operator's number in it. */
export function tooManyRunsMessage(limit: number): string {
  return `You already have ${limit} build${limit === 1 ? '' : 's'} running, the most one account may run at once. Wait for one to finish, then start this one.`;
}

/**
 * Bounds the builds one user has running at once (WOLFPACK_CONCURRENT_RUNS_PER_USER), so
 * one account cannot take the server's engines and CPU from everybody else. A user's starts are
 * taken one at a time in this process: each counts the user's running runs and is admitted only
 * below the limit, and the next is counted once the admitted run's row is stored. (Servers sharing
 * a PostgreSQL database each admit their own starts, so a burst spread over them may pass by one
 * or two; the bound is for fairness, not money, which the ledger guards.)
 */
export class RunAdmission {
  /** Per user: the admission in progress, which the next one waits for. */
  private readonly queues = new Map<string, Promise<unknown>>();

  constructor(
    private readonly orm: MikroORM,
    private readonly limit: number,
  ) {}

  async admit<T>(userId: string, start: () => Promise<T>): Promise<T> {
    const before = this.queues.get(userId) ?? Promise.resolve();
    const turn = before.catch(() => undefined).then(async () => {
      const [row] = await (this.orm.em.fork() as Sql).execute<Array<{ n: string | number }>>("select count(*) as n from conversations where user_id = ? and status = 'running'", [userId]);
      if (Number(row?.n ?? 0) >= this.limit) throw new AppError('TOO_MANY_REQUESTS', tooManyRunsMessage(this.limit));
      return start();
    });
    this.queues.set(userId, turn);
    try {
      return await turn;
    } finally {
      if (this.queues.get(userId) === turn) this.queues.delete(userId);
    }
  }
}

/**
 * The run service as the routes see it: starting a build and "Repair again" go through
 * `admission`; everything else is the service itself (resuming continues a run admitted before).
 */
export function admittedRuns(runs: RunService, admission: RunAdmission): RunService {
  const wrapped: Partial<RunService> = {
    start: (user, request) => admission.admit(user.id, () => runs.start(user, request)),
    startRepair: (user, projectId, request) => admission.admit(user.id, () => runs.startRepair(user, projectId, request)),
  };
  return new Proxy(runs, {
    get(target, property) {
      if (property in wrapped) return wrapped[property as keyof typeof wrapped];
      const value: unknown = Reflect.get(target, property);
      // Bound to the service itself, so its own fields are read and written there.
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
