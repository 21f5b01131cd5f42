import { describe, expect, it } from 'vitest';
import { cachedReadiness, runChecks } from '../../api/readinessChecks.ts';

describe('cachedReadiness', () => {
  it('runs the checks once for every call within the interval, then again', async () => {
    let runs = 0;
    const readiness = cachedReadiness(async () => (runs++, { store: { status: 'up' as const } }), 50, { warn: () => {} });
    await Promise.all(Array.from({ length: 20 }, () => readiness()));
    expect(runs).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 60));
    await readiness();
    expect(runs).toBe(2);
  });

  it('answers a generic "unreachable" and logs the cause', async () => {
    const logged: object[] = [];
    const readiness = cachedReadiness(
      () => runChecks({ store: async () => Promise.reject(new Error('connect ECONNREFUSED 10.1.2.3:5432')) }, 1000),
      0,
      { warn: (details) => void logged.push(details) },
    );
    expect(await readiness()).toEqual({ store: { status: 'down', message: 'unreachable' } });
    expect(logged).toEqual([{ check: 'store', cause: 'connect ECONNREFUSED 10.1.2.3:5432' }]);
  });
});
