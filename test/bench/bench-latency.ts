// Latency percentiles, and the slowest request bodies of a run at one connection.

export function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** One request body's latencies over a run at one connection (2xx responses). */
export interface BodyLatency {
  /** Index of the body in its class's list. */
  body: number;
  requests: number;
  p50: number;
  max: number;
}

// Each body's 2xx latencies, slowest first by median (then by its slowest request): the bodies a
// class's tail comes from. Only as many as `keep`.
export function slowestBodies(latencies: ReadonlyMap<number, number[]>, keep: number): BodyLatency[] {
  const r2 = (n: number) => Math.round(n * 100) / 100;
  return [...latencies]
    .filter(([, l]) => l.length > 0)
    .map(([body, l]) => {
      const sorted = Float64Array.from(l).sort();
      return { body, requests: sorted.length, p50: r2(percentile(sorted, 50)), max: r2(sorted[sorted.length - 1]) };
    })
    .sort((a, b) => b.p50 - a.p50 || b.max - a.max || a.body - b.body)
    .slice(0, keep);
}
