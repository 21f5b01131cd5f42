import { readdirSync, readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { drivePaced } from './pacedLoad.ts';

export interface BenchRequest {
  method: 'GET' | 'POST';
  path: string;
  body?: string;
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

const JSON_HEADERS = { 'content-type': 'application/json' };

const toAutocannon = (r: BenchRequest) => ({
  method: r.method,
  path: r.path,
  ...(r.body !== undefined ? { body: r.body, headers: JSON_HEADERS } : {}),
});

/** Exact percentile of the recorded latencies (autocannon's own histogram has a 1 ms resolution). */
function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

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
  const seconds = (performance.now() - started) / 1000;
  const sorted = latencies.subarray(0, count).sort();
  return {
    requests: count,
    errors: result.mismatches + result.errors,
    seconds,
    rps: count / seconds,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
  };
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

const TICKS_PER_SECOND = 100;

/** The project's entry point a Node process runs (`api/main.ts`, `worker/main.ts`), from its command line. */
export function entryPointOf(pid: number): string | undefined {
  try {
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    return /(?:^|\/)((?:api|worker|scripts)\/\w+\.ts)$/.exec(args.find((arg) => arg.endsWith('.ts')) ?? '')?.[1];
  } catch {
    return undefined;
  }
}

/**
 * CPU seconds (user + system, all threads) used so far by a process and by its descendants, grouped: `api` and
 * `worker` for those entry points, `postgres` for PostgreSQL's processes, `rootGroup` for the root itself, else the command.
 */
export function cpuOfTree(rootPid: number, rootGroup = 'start'): Map<string, number> {
  const procs: { pid: number; ppid: number; comm: string; cpu: number }[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      const comm = stat.slice(stat.indexOf('(') + 1, close);
      const fields = stat.slice(close + 2).split(' ');
      procs.push({ pid: Number(entry), ppid: Number(fields[1]), comm, cpu: (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND });
    } catch {
      // gone meanwhile
    }
  }
  const children = new Map<number, typeof procs>();
  for (const p of procs) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p]);
  const totals = new Map<string, number>();
  const groupOf = (p: (typeof procs)[number], isRoot: boolean) => {
    if (isRoot) return rootGroup;
    if (p.comm.startsWith('postgres')) return 'postgres';
    const entry = entryPointOf(p.pid);
    return entry?.startsWith('api/') ? 'api' : entry?.startsWith('worker/') ? 'worker' : p.comm;
  };
  const visit = (pid: number, isRoot: boolean) => {
    const self = procs.find((p) => p.pid === pid);
    if (self) {
      const group = groupOf(self, isRoot);
      totals.set(group, (totals.get(group) ?? 0) + self.cpu);
    }
    for (const child of children.get(pid) ?? []) visit(child.pid, false);
  };
  visit(rootPid, true);
  return totals;
}

/**
 * Resolves once a process tree uses less than a tenth of a core over a second (at most `timeoutMs`): work it
 * accepted during the previous run, such as provisioning handed off to the worker, is then done.
 */
export async function waitUntilQuiet(rootPid: number, log: (message: string) => void, timeoutMs = 120_000): Promise<void> {
  const total = () => [...cpuOfTree(rootPid).values()].reduce((sum, seconds) => sum + seconds, 0);
  const started = Date.now();
  let before = total();
  for (;;) {
    await new Promise((r) => setTimeout(r, 1000));
    const now = total();
    if (now - before < 0.1) return;
    if (Date.now() - started > timeoutMs) {
      log(`  still busy after ${timeoutMs / 1000} s; going on`);
      return;
    }
    before = now;
  }
}

/** The pid of the child of `parentPid` that runs the given entry point (e.g. `api/main.ts`). */
export function childRunning(parentPid: number, entryPoint: string): number | undefined {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === parentPid && entryPointOf(Number(entry)) === entryPoint) return Number(entry);
    } catch {
      // gone meanwhile
    }
  }
  return undefined;
}

/** Per-group CPU milliseconds per request between two cpuOfTree readings. */
export function cpuPerRequest(before: Map<string, number>, after: Map<string, number>, requests: number): string {
  return [...after]
    .map(([group, cpu]) => [group, ((cpu - (before.get(group) ?? 0)) * 1000) / Math.max(1, requests)] as const)
    .filter(([, ms]) => ms >= 0.005)
    .map(([group, ms]) => `${group} ${ms.toFixed(2)}`)
    .join(', ');
}
