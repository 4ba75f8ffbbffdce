// Latency figures the benches share: percentiles of sorted samples, and /api/health asked one
// request after another while something else goes on (as a load balancer or a user's page would).

/** The nearest-rank percentile `p` (0–100) of `sorted` (ascending); 0 when there is none. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/** `/api/health`'s answer times at `url`, asked one after another (5 ms apart) while `going()`; ascending. */
export async function askHealth(url: string, going: () => boolean): Promise<number[]> {
  const times: number[] = [];
  while (going()) {
    const asked = performance.now();
    await (await fetch(`${url}/api/health`)).arrayBuffer();
    times.push(performance.now() - asked);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return times.sort((a, b) => a - b);
}
