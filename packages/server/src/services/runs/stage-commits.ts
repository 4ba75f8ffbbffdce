import type { EngineCallRecord, PipelineCheckpoint } from '@wolfpack/core/pipeline';
import type { EngineActivity } from './engine-activity.js';
import type { StageHolds } from './run-billing.js';

/** A stage that finished: its checkpoint, its engine calls and what was held for them. */
export interface FinishedStage {
  holds: StageHolds;
  cp: PipelineCheckpoint;
  calls: EngineCallRecord[];
}

/** Stages waiting this long for a busy engine commit anyway (a stage that makes no calls, say). */
const MAX_WAIT_MS = 2000;

/**
 * A run's stage commits, behind the pipeline: the next stage starts at once, and the commit runs
 * while its engines work (see {@link EngineActivity}). Stages that finished meanwhile commit
 * together, in order, in one transaction. At the end of the run the stages not yet committed go to
 * the caller, which commits them with the project.
 */
export class StageCommits {
  private pending: FinishedStage[] = [];
  private worker: Promise<void> | undefined;
  private failure: unknown;
  private urgent = false;
  private ending = false;

  constructor(
    private readonly commit: (stages: FinishedStage[]) => Promise<void>,
    private readonly activity: EngineActivity,
  ) {}

  add(stage: FinishedStage): void {
    this.check();
    this.pending.push(stage);
    this.worker ??= this.work();
  }

  /** Throws what stopped the commits (a lost lease, a database that stayed away). */
  check(): void {
    if (this.failure) throw this.failure;
  }

  get failed(): unknown {
    return this.failure;
  }

  /** Everything finished so far is committed now (a call refused for credits first waits for what they give back). */
  async settled(): Promise<void> {
    this.urgent = true;
    this.activity.wake();
    try {
      while (this.worker) await this.worker;
    } finally {
      this.urgent = false;
    }
    this.check();
  }

  /** The run's end: waits for a commit under way and hands over the stages not yet committed. */
  async take(): Promise<FinishedStage[]> {
    this.ending = true;
    this.activity.wake();
    while (this.worker) await this.worker;
    this.check();
    return this.pending.splice(0);
  }

  private async work(): Promise<void> {
    try {
      while (this.pending.length > 0 && !this.failure) {
        if (!this.urgent) await this.activity.quiet(MAX_WAIT_MS);
        if (this.ending && !this.urgent) return;
        const batch = this.pending.splice(0);
        try {
          await this.commit(batch);
        } catch (error) {
          this.failure = error;
        }
      }
    } finally {
      this.worker = undefined;
    }
  }
}
