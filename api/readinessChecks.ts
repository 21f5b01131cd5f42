import type { Orm } from '../store/orm.ts';
import { pingStore } from '../store/pingStore.ts';

export interface CheckResult {
  status: 'up' | 'down' | 'disabled';
  message?: string;
  /** The message says nothing an outsider should not know (a count, not a host): /readyz may show it. */
  public?: boolean;
}
export type Check = () => Promise<CheckResult>;

/** A check that does not answer in time counts as down, so /readyz itself never hangs. */
export async function runChecks(checks: Record<string, Check>, timeoutMs: number): Promise<Record<string, CheckResult>> {
  const entries = await Promise.all(
    Object.entries(checks).map(async ([name, check]) => {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<CheckResult>((resolve) => {
        timer = setTimeout(() => resolve({ status: 'down', message: `no answer within ${timeoutMs} ms` }), timeoutMs);
      });
      const result = await Promise.race([
        check().catch((error: unknown): CheckResult => ({ status: 'down', message: (error as Error).message })),
        timeout,
      ]);
      clearTimeout(timer);
      return [name, result] as const;
    }),
  );
  return Object.fromEntries(entries);
}

export const storeCheck = (orm: Orm): Check => async () => {
  await pingStore(orm);
  return { status: 'up' };
};

/**
 * /readyz is public: its answer is shared for `ttlMs` by every caller (one run of the checks at a time, so a flood of
 * probes costs one ping of each dependency per interval), and says only up or down. Why a check is down (a host
 * name, a driver's error text) goes to the log, not to whoever asks.
 */
export function cachedReadiness(
  run: () => Promise<Record<string, CheckResult>>,
  ttlMs: number,
  log: { warn(details: object, message: string): void },
): () => Promise<Record<string, CheckResult>> {
  let last: { at: number; result: Promise<Record<string, CheckResult>> } | undefined;
  return () => {
    const now = Date.now();
    if (last && now - last.at < ttlMs) return last.result;
    const result = run().then((checks) => {
      for (const [check, { status, message }] of Object.entries(checks)) {
        if (status === 'down') log.warn({ check, cause: message }, 'readiness check down');
      }
      return Object.fromEntries(
        Object.entries(checks).map(([name, { status, message, public: shown }]) => [
          name,
          status === 'down' ? { status, message: shown && message ? message : 'unreachable' } : { status },
        ]),
      );
    });
    last = { at: now, result };
    return result;
  };
}
