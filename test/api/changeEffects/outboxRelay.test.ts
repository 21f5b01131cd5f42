import { describe, expect, it } from 'vitest';
import { startOutboxRelay } from '../../../api/changeEffects/outboxRelay.ts';
import type { AuditAppend } from '../../../domain/schemas/audit.ts';
import type { ActorOutbox, OutboxEntry } from '../../../domain/tenantActor/actorOutboxRepository.ts';
import { createLogger } from '../../../platform/logger.ts';
import { eventually } from '../../support/eventually.ts';

/**
 * The relay's own rules, against an outbox of one entry and a Temporal that never answers (the outbox's SQL is
 * checked against PostgreSQL in test/store/postgresActorOutbox.test.ts; a shared test database has other files'
 * hand-offs in it, which a relay here must not take).
 */
function setup(maxAttempts: number) {
  const entry: OutboxEntry = { id: 7, tenantId: '00000000-0000-4000-8000-000000000007', command: { kind: 'provision' }, attempts: 0 };
  const leases: { limit: number; leaseSeconds: number }[] = [];
  let dead = false;
  const outbox: ActorOutbox = {
    async leaseDue(limit, leaseSeconds) {
      leases.push({ limit, leaseSeconds });
      if (dead) return [];
      entry.attempts += 1;
      return [{ ...entry }];
    },
    async recordDeliveryError(leased, _message, max) {
      dead = leased.attempts >= max;
      return { deadLettered: dead };
    },
    async markDelivered() {},
    async backlog() {
      return { pending: dead ? 0 : 1, oldestSeconds: 0, deadLettered: dead ? 1 : 0 };
    },
  };
  const appended: AuditAppend[] = [];
  const dispatcher = { deliver: async () => Promise.reject(new Error('Temporal unreachable')) };
  const relay = startOutboxRelay({
    outbox,
    audit: { append: async (event) => (appended.push(event), { ...event, id: appended.length, created_at: '', hash: '' }) },
    dispatcher,
    handOffTimeoutMs: 300,
    log: createLogger('silent', 'relay'),
    intervalMs: 20,
    maxAttempts,
  });
  return { relay, leases, appended, entry, isDead: () => dead };
}

describe('the outbox relay', () => {
  it('leases a pass of hand-offs for longer than the pass can last (each bounded by the hand-off timeout)', async () => {
    const { relay, leases } = setup(3);
    await eventually(async () => leases.length > 0, 5_000, 'a lease');
    await relay.stop();
    const { limit, leaseSeconds } = leases[0]!;
    expect(leaseSeconds * 1000).toBeGreaterThan(limit * 300);
  });

  it('counts attempts and, after the last one, dead-letters the hand-off: an audit event, and no further attempt', async () => {
    const { relay, appended, entry, isDead } = setup(3);
    await eventually(async () => appended.length === 1, 5_000, 'the dead-letter event');
    expect(isDead()).toBe(true);
    expect(appended[0]).toMatchObject({
      action: 'tenant.handoff_dead_lettered',
      tenant_id: entry.tenantId,
      metadata: { command: 'provision', attempts: 3, last_error: 'Temporal unreachable' },
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    await relay.stop();
    expect(entry.attempts).toBe(3);
    expect(appended).toHaveLength(1);
  });
});

/** An outbox of `count` due hand-offs, each leased once; `deliver` answers each delivery. */
function backlog(count: number, deliver: () => Promise<void>, intervalMs: number) {
  const due: OutboxEntry[] = Array.from({ length: count }, (_, i) => ({ id: i + 1, tenantId: '00000000-0000-4000-8000-000000000008', command: { kind: 'provision' }, attempts: 0 }));
  const delivered: number[] = [];
  let leases = 0;
  const outbox: ActorOutbox = {
    async leaseDue(limit) {
      leases += 1;
      return due.splice(0, limit);
    },
    async recordDeliveryError() {
      return { deadLettered: false };
    },
    async markDelivered(ids) {
      delivered.push(...ids);
    },
    async backlog() {
      return { pending: due.length, oldestSeconds: 0, deadLettered: 0 };
    },
  };
  const relay = startOutboxRelay({ outbox, dispatcher: { deliver }, handOffTimeoutMs: 300, log: createLogger('silent', 'relay'), intervalMs });
  return { relay, delivered, leases: () => leases };
}

describe('the outbox relay under a backlog', () => {
  it('runs full passes back to back within one tick: 35 hand-offs are delivered at the first tick, not over four', async () => {
    const { relay, delivered, leases } = backlog(35, async () => {}, 2_000);
    await eventually(async () => delivered.length === 35, 3_500, 'the whole backlog delivered');
    await relay.stop();
    expect(leases()).toBe(4);
  });

  it('ends a draining tick after its current pass when stopped: shutting down waits for one pass, not the backlog', async () => {
    const slow = () => new Promise<void>((resolve) => setTimeout(resolve, 100));
    const { relay, delivered, leases } = backlog(35, slow, 500);
    await eventually(async () => leases() >= 1, 3_000, 'a first pass');
    const stopping = performance.now();
    await relay.stop();
    expect(performance.now() - stopping).toBeLessThan(2_000);
    expect(leases()).toBe(1);
    expect(delivered).toHaveLength(10);
  });

  it('stops a tick at a pass that could not deliver everything: a refusing Temporal gets one pass an interval', async () => {
    const { relay, delivered, leases } = backlog(35, async () => Promise.reject(new Error('Temporal unreachable')), 3_000);
    await eventually(async () => leases() >= 1, 6_000, 'a first pass');
    await new Promise((resolve) => setTimeout(resolve, 300));
    await relay.stop();
    expect(leases()).toBe(1);
    expect(delivered).toHaveLength(0);
  });
});
