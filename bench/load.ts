import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { summarizeLatencies, type BenchRequest, type LoadOptions, type LoadResult } from './loadRun.ts';
import { drivePaced } from './pacedLoad.ts';

const JSON_HEADERS = { 'content-type': 'application/json' };

const toAutocannon = (r: BenchRequest) => ({
  method: r.method,
  path: r.path,
  ...(r.body !== undefined ? { body: r.body } : {}),
  ...(r.body !== undefined || r.headers ? { headers: { ...(r.body !== undefined ? JSON_HEADERS : {}), ...r.headers } } : {}),
});

/**
 * One run on loopback; latencies are recorded per response with sub-millisecond resolution. As fast as answers come:
 * autocannon, closed loop; at an offered rate: drivePaced, open loop.
 */
export async function drive(options: LoadOptions): Promise<LoadResult> {
  if (options.rate) return drivePaced({ ...options, rate: options.rate });
  const { requests, nextRequest } = options;
  let slices: ReturnType<typeof toAutocannon>[][] = [];
  if (requests) {
    const built = requests.map(toAutocannon);
    slices = Array.from({ length: options.connections }, () => []);
    built.forEach((r, i) => slices[i % options.connections]!.push(r));
    // Fewer requests than connections: every connection still gets one.
    slices.forEach((slice, i) => {
      if (slice.length === 0) slice.push(built[i % built.length]!);
    });
  }
  let client = 0;
  let latencies = new Float64Array(1 << 16);
  let count = 0;
  const started = performance.now();
  const instance = autocannon({
    url: options.url,
    connections: options.connections,
    duration: options.durationSeconds,
    ...(options.amount ? { amount: Math.max(options.amount, options.connections) } : {}),
    // The first connection's requests are replaced per client in setupClient.
    requests: nextRequest
      ? [{ setupRequest: (req) => ({ ...req, ...toAutocannon(nextRequest()) }) }]
      : slices[0],
    setupClient: (c) => {
      if (!nextRequest) c.setRequests(slices[client++ % slices.length]!);
    },
    verifyBody: options.check,
    timeout: 30,
  });
  instance.on('response', (_client: unknown, _status: number, _bytes: number, responseTime: number) => {
    if (count === latencies.length) {
      const grown = new Float64Array(latencies.length * 2);
      grown.set(latencies);
      latencies = grown;
    }
    latencies[count++] = responseTime;
  });
  const result = await instance;
  return summarizeLatencies(latencies.subarray(0, count), result.mismatches + result.errors, (performance.now() - started) / 1000);
}

/** Peak resident memory of a process, sampled from /proc (VmRSS) while a phase runs; VmHWM is the kernel's own peak. */
export class RssSampler {
  readonly pid: number;
  #timer: NodeJS.Timeout | undefined;
  #peak = 0;

  constructor(pid: number) {
    this.pid = pid;
  }

  static read(pid: number): { rss: number; hwm: number } {
    try {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
      return { rss: kb('VmRSS') * 1024, hwm: kb('VmHWM') * 1024 };
    } catch {
      return { rss: 0, hwm: 0 };
    }
  }

  /** Starts a phase: the peak is reset and VmRSS sampled every 100 ms until stop(). */
  start(): void {
    this.#peak = RssSampler.read(this.pid).rss;
    this.#timer = setInterval(() => {
      this.#peak = Math.max(this.#peak, RssSampler.read(this.pid).rss);
    }, 100);
  }

  /** Ends the phase and returns its peak VmRSS in bytes. */
  stop(): number {
    clearInterval(this.#timer);
    this.#peak = Math.max(this.#peak, RssSampler.read(this.pid).rss);
    return this.#peak;
  }
}
