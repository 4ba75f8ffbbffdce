import { readdirSync, readFileSync } from 'node:fs';

/**
 * The host's processes whose command line holds `marker`, as they are now: for tests that assert
 * nothing of a sandbox is left the moment its run returns (no waiting, no reaping to come).
 */
export function survivors(marker: string): string[] {
  return readdirSync('/proc')
    .filter((pid) => /^\d+$/.test(pid))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker);
      } catch {
        return false; // gone since the listing
      }
    });
}
