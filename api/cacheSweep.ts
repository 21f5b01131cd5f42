import type { RegistryCache } from '../domain/reads/registryCache.ts';

/**
 * How often the registry cache forgets what can answer nothing any more. Often enough that a burst of distinct reads
 * (a sync, a crawl of every tenant) is let go within seconds of its last stale-if-error use; each sweep walks only what
 * it forgets.
 */
const SWEEP_INTERVAL_MS = 5_000;

/** Sweeps the cache until stopped; the timer never keeps the process alive by itself. */
export function startCacheSweep(cache: RegistryCache, intervalMs = SWEEP_INTERVAL_MS): { stop(): void } {
  const timer = setInterval(() => cache.sweep(), intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
