import { readdirSync, readFileSync } from 'node:fs';

/**
 * Pids of the processes that have one of `tags` as a whole argument: the sandboxed programs a
 * test started with it (a sandbox's processes are this machine's, in a namespace of their own).
 */
export function processesWith(...tags: string[]): string[] {
  return readdirSync('/proc').filter((pid) => {
    if (!/^\d+$/.test(pid)) return false;
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8')
        .split('\0')
        .some((arg) => tags.includes(arg));
    } catch {
      return false; // gone since the listing
    }
  });
}

/** Which of `tags` a running process has as an argument. */
export function runningTags(tags: readonly string[]): string[] {
  const found = new Set<string>();
  for (const pid of processesWith(...tags)) {
    try {
      for (const arg of readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')) if (tags.includes(arg)) found.add(arg);
    } catch {
      // gone since the listing
    }
  }
  return [...found];
}
