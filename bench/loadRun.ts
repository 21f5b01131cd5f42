/** What a load run is asked (LoadOptions, its BenchRequests) and what it measures (LoadResult), for both drivers. */

export interface BenchRequest {
  method: 'GET' | 'POST' | 'PATCH';
  path: string;
  body?: string;
  /** Sent beside content-type (a SCIM directory's bearer token). */
  headers?: Record<string, string>;
}

export interface LoadOptions {
  url: string;
  connections: number;
  durationSeconds: number;
  /** Stop after this many requests instead (the duration is then an upper bound). */
  amount?: number;
  /** Offered load in requests per second, paced evenly (open loop, see drivePaced); default: as fast as answers come. */
  rate?: number;
  /**
   * The requests, spread over the connections: connection i loops over its own slice, so many different keys,
   * tenants and filter values are in flight at once. Bodies are built before the run, so the load generator
   * does no per-request work the baseline would not do as well.
   */
  requests?: BenchRequest[];
  /** A fresh request per call instead (tenant creation needs a unique slug each time). */
  nextRequest?: () => BenchRequest;
  /** A response whose body fails this check (this includes every non-2xx answer) counts as an error. */
  check: (body: string) => boolean;
}

export interface LoadResult {
  requests: number;
  errors: number;
  seconds: number;
  rps: number;
  p50: number;
  p99: number;
}

/** Throughput and exact percentiles of per-response latencies in ms (autocannon's own histogram has a 1 ms resolution). */
export function summarizeLatencies(latencies: Float64Array, errors: number, seconds: number): LoadResult {
  const sorted = latencies.sort();
  const percentile = (p: number) => (sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!);
  return { requests: sorted.length, errors, seconds, rps: sorted.length / seconds, p50: percentile(50), p99: percentile(99) };
}
