import type { LogLevel } from '@wolfpack/core';
import { useEffect, useState } from 'react';

/** Colours of activity-log lines by level (info stays the terminal's default). */
export const LEVEL_COLORS: Record<LogLevel, string | undefined> = { info: undefined, success: 'green', warning: 'yellow', error: 'red' };

/** The current time, re-read every second while `going`, so elapsed and remaining times tick. */
export function useNow(going: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!going) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [going]);
  return now;
}
