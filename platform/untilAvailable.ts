import { retryDelayMs } from '../domain/retryPolicy.ts';
import type { Logger } from './logger.ts';

/**
 * Runs `attempt` until it succeeds, waiting between failures with a bounded exponential backoff (0.5 s doubling to
 * 15 s), each failure logged with the dependency's name: a process started while PostgreSQL or Temporal is down
 * waits for it instead of exiting, and connects as soon as it is back. `stopped` ends the wait (a shutdown).
 */
export async function untilAvailable<T>(
  dependency: string,
  attempt: () => Promise<T>,
  log: Logger,
  options: { initialMs?: number; maxMs?: number; stopped?: () => boolean } = {},
): Promise<T> {
  const policy = { initialIntervalMs: options.initialMs ?? 500, backoffCoefficient: 2, maximumIntervalMs: options.maxMs ?? 15_000 };
  for (let tries = 1; ; tries++) {
    try {
      const result = await attempt();
      if (tries > 1) log.info({ dependency, tries }, `${dependency} reached`);
      return result;
    } catch (err) {
      if (options.stopped?.()) throw err;
      const delay = retryDelayMs(policy, tries);
      log.warn({ dependency, tries, retryInMs: delay, err: { message: (err as Error).message } }, `waiting for ${dependency}`);
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}
