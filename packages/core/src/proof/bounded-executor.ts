import { Slots } from '../util/slots.js';
import type { ProjectExecutor } from './execute-project.js';

/**
 * `execute` with at most `slots.size` projects running at once in this process; the others wait
 * their turn, told through `onWait` how many start before them, and an aborted one leaves the line
 * unrun. Turns go user by user (`options.owner`, see {@link Slots}): one user's many re-checks
 * delay another user's build by at most one of them. Each project is a sandbox of its own (an
 * install, tests, a server, a Chromium for its pages): ten at once on a machine of two cores share
 * it ten ways, so each takes ten times as long against its own time limit, and the server's
 * requests and streams wait behind them all. In turn, a project's time limit counts its own run
 * only, never its wait.
 */
export function boundedExecutor(execute: ProjectExecutor, slots: Slots): ProjectExecutor {
  return (files, options = {}) => {
    const { onWait, owner, ...rest } = options;
    return slots.run(() => execute(files, rest), {
      ...(options.signal ? { signal: options.signal } : {}),
      ...(onWait ? { onWait } : {}),
      ...(owner ? { owner: owner.userId } : {}),
    });
  };
}
