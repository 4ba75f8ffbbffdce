/** Small time formats of the build screen. */

/** A time estimate: '~8s', '~1m 5s' (spec core §9 format of the enhancement estimate). */
export function formatEstimate(seconds: number): string {
  const whole = Math.max(0, Math.round(seconds));
  if (whole < 60) return `~${whole}s`;
  return `~${Math.floor(whole / 60)}m ${whole % 60}s`;
}

/** Elapsed time: '12.3s' below a minute, '2m 05s' above. */
export function formatElapsed(seconds: number): string {
  const value = Math.max(0, seconds);
  if (value < 60) return `${value.toFixed(1)}s`;
  const whole = Math.round(value);
  return `${Math.floor(whole / 60)}m ${String(whole % 60).padStart(2, '0')}s`;
}

/** '14:03:27' in the user's locale for an ISO timestamp; '' when it cannot be parsed. */
export function formatClock(timestamp: string): string {
  const date = new Date(timestamp);
  if (Number.isNaN(date.getTime())) return '';
  return date.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' });
}

/**
 * A date as 'Nov 3, 2026, 2:14 PM' in US English (like the rest of the interface); 'recently'
 * when it cannot be parsed.
 */
export function formatDateTime(timestamp: string): string {
  const date = new Date(timestamp);
  if (Number.isNaN(date.getTime())) return 'recently';
  return date.toLocaleString('en-US', { month: 'short', day: 'numeric', year: 'numeric', hour: 'numeric', minute: '2-digit' });
}

/**
 * A day as 'Dec 1, 2026' in US English; 'recently' when it cannot be parsed. `utc` shows the UTC
 * day (the monthly grant resets at 00:00 UTC, which is still the evening before west of London).
 */
export function formatDate(timestamp: string, options: { utc?: boolean } = {}): string {
  const date = new Date(timestamp);
  if (Number.isNaN(date.getTime())) return 'recently';
  return date.toLocaleDateString('en-US', {
    month: 'short',
    day: 'numeric',
    year: 'numeric',
    ...(options.utc ? { timeZone: 'UTC' } : {}),
  });
}
