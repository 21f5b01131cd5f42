import type { NativeConnection, Worker } from '@temporalio/worker';
import type { Logger } from '../platform/logger.ts';
import type { ProbeAnswer } from '../platform/metrics/metricsServer.ts';

type CheckStatus = { status: 'up' | 'down'; message?: string };

/** Bound on the connection's answer: past it Temporal counts as gone, so a probe never hangs. */
const PING_DEADLINE_MS = 2_000;

/**
 * The worker's readiness: it polls Temporal, that is its Worker is RUNNING and its connection answers a call now
 * (the pollers' own retries hide an outage from the Worker's state). One check answers every caller for `ttlMs`
 * (READINESS_CACHE_MS), so probes and scrapes together cost one call to Temporal an interval. Before the worker is
 * made (bundling, waiting for Temporal at start) it is not ready.
 */
export class WorkerReadiness {
  #running: { worker: Worker; connection: NativeConnection } | undefined;
  #last: { at: number; checks: Promise<Record<'worker' | 'temporal', CheckStatus>> } | undefined;
  readonly #ttlMs: number;
  readonly #log: Logger;

  constructor(ttlMs: number, log: Logger) {
    this.#ttlMs = ttlMs;
    this.#log = log;
  }

  /** The worker to watch, once made. */
  watch(worker: Worker, connection: NativeConnection): void {
    this.#running = { worker, connection };
    this.#last = undefined;
  }

  async ready(): Promise<boolean> {
    const checks = await this.#checks();
    return checks.worker.status === 'up' && checks.temporal.status === 'up';
  }

  /** /readyz: 200 while ready, else 503 with what is down (the cause goes to the log). */
  async answer(): Promise<ProbeAnswer> {
    const checks = await this.#checks();
    if (checks.worker.status === 'up' && checks.temporal.status === 'up') return { status: 200, body: { status: 'ready', checks } };
    return { status: 503, body: { error: 'unavailable', message: 'the worker is not polling Temporal', checks } };
  }

  #checks(): Promise<Record<'worker' | 'temporal', CheckStatus>> {
    const now = Date.now();
    if (this.#last && now - this.#last.at < this.#ttlMs) return this.#last.checks;
    const checks = this.#run();
    this.#last = { at: now, checks };
    return checks;
  }

  async #run(): Promise<Record<'worker' | 'temporal', CheckStatus>> {
    if (!this.#running) return { worker: { status: 'down', message: 'starting' }, temporal: { status: 'down', message: 'not connected yet' } };
    const { worker, connection } = this.#running;
    const state = worker.getState();
    const workerCheck: CheckStatus = state === 'RUNNING' ? { status: 'up' } : { status: 'down', message: state.toLowerCase() };
    try {
      await connection.withDeadline(Date.now() + PING_DEADLINE_MS, () => connection.workflowService.getSystemInfo({}));
      return { worker: workerCheck, temporal: { status: 'up' } };
    } catch (err) {
      this.#log.warn({ err }, 'readiness: Temporal does not answer the worker');
      return { worker: workerCheck, temporal: { status: 'down', message: 'unreachable' } };
    }
  }
}
