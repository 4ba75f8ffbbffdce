import { AppError } from '@wolfpack/core';
import type { ProjectExecutor, SandboxOwner } from '@wolfpack/core/proof';

/** The 429 of a re-check when the user already has their share of sandboxes, with the operator's number in it. */
export function tooManySandboxesMessage(limit: number): string {
  const what = limit === 1 ? 'a project' : `${limit} projects`;
  return `You already have ${what} running or waiting in Proven Code's sandbox (builds and re-checks count alike), the most one account may have at once. Wait for one to finish, then re-check this one.`;
}

/** The 429 of a re-check of a project whose sandbox is running or waiting. */
export const PROJECT_BEING_CHECKED =
  'This project is already being checked: a re-check or a repair of it is running or waiting for a sandbox, and a project is checked one at a time. Wait for it to finish (its result is shown when it does), then re-check again if you still need to.';

/**
 * Each user's and each project's sandboxes running or waiting in this process (the sandboxes are
 * shared by everybody: WOLFPACK_PROOF_CONCURRENCY). A re-check is refused with a 429 when its
 * project already has one (a re-check, or a repair's checks), or its user has
 * WOLFPACK_SANDBOXES_PER_USER; the checks of a build are counted the same, but never refused, since
 * the build was admitted already (WOLFPACK_CONCURRENT_RUNS_PER_USER) and waits its turn instead.
 * Counted per process, like RunAdmission (run-admission.ts).
 */
export class SandboxShares {
  private readonly users = new Map<string, number>();
  private readonly projects = new Map<string, number>();

  constructor(private readonly perUser: number) {}

  /**
   * Counts a sandbox for `owner` until the returned function is called; with `refuse`, throws the
   * 429 instead when the project or the user has no room left.
   */
  hold(owner: SandboxOwner, refuse: boolean): () => void {
    const { userId, projectId } = owner;
    if (refuse && projectId !== undefined && (this.projects.get(projectId) ?? 0) > 0) throw new AppError('TOO_MANY_REQUESTS', PROJECT_BEING_CHECKED);
    if (refuse && (this.users.get(userId) ?? 0) >= this.perUser) throw new AppError('TOO_MANY_REQUESTS', tooManySandboxesMessage(this.perUser));
    bump(this.users, userId, 1);
    if (projectId !== undefined) bump(this.projects, projectId, 1);
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      bump(this.users, userId, -1);
      if (projectId !== undefined) bump(this.projects, projectId, -1);
    };
  }

  /** The user's sandboxes running or waiting now. */
  heldBy(userId: string): number {
    return this.users.get(userId) ?? 0;
  }

  /** `execute` with each project counted while it runs or waits (the checks of builds: never refused). */
  counted(execute: ProjectExecutor): ProjectExecutor {
    return async (files, options = {}) => {
      const release = options.owner ? this.hold(options.owner, false) : () => undefined;
      try {
        return await execute(files, options);
      } finally {
        release();
      }
    };
  }
}

function bump(counts: Map<string, number>, key: string, by: number): void {
  const n = (counts.get(key) ?? 0) + by;
  if (n > 0) counts.set(key, n);
  else counts.delete(key);
}
