import { describe, expect, inject, it } from 'vitest';
import { RegistryCache } from '../../domain/registryCache.ts';
import { createLogger } from '../../platform/logger.ts';
import { startChangeListener } from '../../store/changeListener.ts';
import { eventually } from '../support/eventually.ts';
import { startTcpProxy } from '../support/tcpProxy.ts';

const key = { id: 'k', tenantId: 't', product: null, scopes: [], keyHash: Buffer.alloc(32), revoked: false, expiresAt: null, lastUsedAt: 0 };

describe('the cache change listener', () => {
  it('on a half-open connection stops the cache within its liveness lease, then reconnects and resumes it', async () => {
    const databaseUrl = new URL(inject('databaseUrl'));
    const proxy = await startTcpProxy({ host: databaseUrl.hostname, port: Number(databaseUrl.port) });
    const viaProxy = new URL(databaseUrl);
    viaProxy.host = proxy.address;
    const cache = new RegistryCache({ ttlMs: 10 * 60_000 });
    const listener = startChangeListener({
      databaseUrl: viaProxy.toString(),
      cache,
      log: createLogger('silent', 'test-listener'),
      heartbeatMs: 100,
      leaseMs: 500,
      reconnectMs: 100,
    });
    try {
      await listener.ready;
      cache.putApiKey('trk_a', key, cache.generation());
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(cache.apiKey('trk_a')).toBeDefined();

      // The listener's connection now silently carries nothing: no error, no notification, no heartbeat answer.
      proxy.stall();
      const stalledAt = Date.now();
      await eventually(async () => cache.apiKey('trk_a') === undefined, 5_000, 'the cache to stop serving');
      // Lease 500 ms after the last answered heartbeat (sent at most 100 ms before the stall), plus scheduling slack.
      expect(Date.now() - stalledAt).toBeLessThan(1_500);

      // A new connection through the proxy works: the listener reconnects and the cache serves again, empty.
      await eventually(async () => cache.active, 5_000, 'the cache to resume');
      expect(cache.apiKey('trk_a')).toBeUndefined();
      cache.putApiKey('trk_a', key, cache.generation());
      expect(cache.apiKey('trk_a')).toBeDefined();
    } finally {
      await listener.stop();
      await proxy.close();
    }
  });

  it('while the heartbeats are answered the cache keeps serving past the lease', async () => {
    const cache = new RegistryCache({ ttlMs: 10 * 60_000 });
    const listener = startChangeListener({ databaseUrl: inject('databaseUrl'), cache, log: createLogger('silent', 'test-listener'), heartbeatMs: 100, leaseMs: 500 });
    try {
      await listener.ready;
      cache.putApiKey('trk_b', key, cache.generation());
      await new Promise((resolve) => setTimeout(resolve, 1_200));
      expect(cache.apiKey('trk_b')).toBeDefined();
    } finally {
      await listener.stop();
    }
  });
});
