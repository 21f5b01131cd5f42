import type { Orm } from '../store/orm.ts';
import { pingStore } from '../store/pingStore.ts';

export interface CheckResult {
  status: 'up' | 'down' | 'disabled';
  message?: string;
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
