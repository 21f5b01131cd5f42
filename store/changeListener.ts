import pg from 'pg';
import type { Logger } from '../platform/logger.ts';
import type { RegistryCache } from '../domain/reads/registryCache.ts';
import { TENANT_LISTING, apiKeyListing, invitationListing } from '../domain/reads/listingNames.ts';

/** The channel the tables' triggers notify on (store/migrations/Migration20261122000005ChangeNotifications.ts). */
export const CHANGE_CHANNEL = 'registry_changes';

export interface ChangeListener {
  /** Resolves once the first LISTEN is in place (the cache serves nothing from memory before that). */
  ready: Promise<void>;
  stop(): Promise<void>;
}

/**
 * Keeps a replica's registry cache honest: one dedicated connection LISTENs for the tables' change notifications
 * and drops what changed. While that connection is down the cache is suspended — every verify and claims call reads
 * the store — because notifications sent meanwhile would be missed; a reconnect clears the cache and resumes it.
 * A connection can also die silently (half-open: no error, no notifications): a heartbeat query every `heartbeatMs`
 * renews the cache's liveness lease to `leaseMs` after the heartbeat was sent (PostgreSQL delivers the notifications
 * committed before a query ahead of its answer), so the cache stops serving within `leaseMs` of the last proof of
 * life, and a heartbeat unanswered for `leaseMs` counts as a lost connection. The TTL bounds whatever slips through.
 */
export function startChangeListener(options: {
  databaseUrl: string;
  cache: RegistryCache;
  log: Logger;
  reconnectMs?: number;
  heartbeatMs?: number;
  leaseMs?: number;
}): ChangeListener {
  const { cache, log } = options;
  const reconnectMs = options.reconnectMs ?? 1000;
  const heartbeatMs = options.heartbeatMs ?? 250;
  const leaseMs = options.leaseMs ?? 1000;
  let current: pg.Client | undefined;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  let heartbeat: NodeJS.Timeout | undefined;
  let markReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => {
    markReady = resolve;
  });

  cache.suspend();

  const apply = (payload: string | undefined) => {
    if (payload?.startsWith('k:')) cache.invalidateApiKey(payload.slice(2));
    else if (payload?.startsWith('t:')) cache.invalidateTenant(payload.slice(2));
    else if (payload?.startsWith('u:')) cache.invalidateUser(payload.slice(2));
    else if (payload?.startsWith('m:')) cache.invalidateMemberList(payload.slice(2));
    else if (payload === 'r:') cache.invalidateAllMembers();
    else if (payload?.startsWith('d:')) cache.invalidateDirectory(payload.slice(2));
    else if (payload === 'c:') cache.invalidateCatalog();
    else if (payload === 'l:') cache.invalidateListing(TENANT_LISTING);
    else if (payload?.startsWith('a:')) cache.invalidateListing(apiKeyListing(payload.slice(2)));
    else if (payload?.startsWith('i:')) cache.invalidateListing(invitationListing(payload.slice(2)));
    // Anything else (a payload of a newer version of the triggers): forget everything rather than guess.
    else cache.clear();
  };

  const lost = (client: pg.Client, reason: unknown) => {
    if (current !== client) return;
    current = undefined;
    clearInterval(heartbeat);
    cache.suspend();
    client.removeAllListeners();
    client.on('error', () => {});
    client.end().catch(() => {});
    if (stopped) return;
    log.warn({ err: reason }, 'cache change listener lost its connection; caches bypassed until it is back');
    // connect() answers its own failures (lost() schedules the next try): nothing of its promise to wait for.
    retry = setTimeout(() => void connect(), reconnectMs);
  };

  async function connect(): Promise<void> {
    const client = new pg.Client({ connectionString: options.databaseUrl, keepAlive: true, application_name: 'tenant-registry-cache-listener' });
    current = client;
    client.on('notification', (message) => {
      if (message.channel === CHANGE_CHANNEL) apply(message.payload);
    });
    client.on('error', (error) => lost(client, error));
    client.on('end', () => lost(client, new Error('connection ended')));
    try {
      await client.connect();
      await client.query(`listen ${CHANGE_CHANNEL}`);
    } catch (error) {
      lost(client, error);
      return;
    }
    if (current !== client) return;
    if (stopped) {
      current = undefined;
      await client.end().catch(() => {});
      return;
    }
    cache.resume(Date.now() + leaseMs);
    markReady();
    let inFlight = false;
    heartbeat = setInterval(() => {
      // One heartbeat at a time: on a half-open connection they would only queue up behind the first.
      if (inFlight) return;
      inFlight = true;
      const sentAt = Date.now();
      const overdue = setTimeout(() => lost(client, new Error(`heartbeat unanswered for ${leaseMs} ms`)), leaseMs);
      client
        .query('select 1')
        .then(() => {
          if (current === client) cache.renewLiveness(sentAt + leaseMs);
        })
        .catch((error: unknown) => lost(client, error))
        .finally(() => {
          clearTimeout(overdue);
          inFlight = false;
        });
    }, heartbeatMs);
    heartbeat.unref();
  }

  void connect();

  return {
    ready,
    async stop() {
      stopped = true;
      clearTimeout(retry);
      clearInterval(heartbeat);
      const client = current;
      current = undefined;
      cache.suspend();
      if (client) {
        client.removeAllListeners();
        client.on('error', () => {});
        await client.end().catch(() => {});
      }
    },
  };
}
