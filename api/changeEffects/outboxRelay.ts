import type { Logger } from '../../platform/logger.ts';
import { runPeriodically } from '../../platform/periodicTask.ts';
import type { ActorOutbox } from '../../domain/tenantActor/actorOutboxRepository.ts';
import type { AuditRepository } from '../../domain/audit/auditRepository.ts';
import type { QueuedActorCommand } from '../../domain/changeEffects/changeEffects.ts';
import { SYSTEM_ACTOR } from '../../domain/requestMeta.ts';

/** Hand-offs one pass takes: with each bounded by the hand-off timeout, the pass is bounded, and so is its lease. */
const PASS_SIZE = 10;
/**
 * Passes one tick may run back to back while each finds a full pass and delivers all of it: a backlog (hand-offs a
 * burst left behind, a Temporal outage just over) drains at Temporal's pace instead of ten per interval, which left
 * hundreds of hand-offs minutes late. A pass that delivers less stops the tick: Temporal is refusing, or nothing is due.
 */
const PASSES_PER_TICK = 20;

/**
 * Delivers actor commands that their request could not hand off (Temporal unreachable, process stopped
 * mid-request), through the same dispatcher as the requests. Safe with several replicas: rows are leased with SKIP
 * LOCKED for longer than a pass can take, so no other replica delivers them meanwhile, and delivery is idempotent
 * anyway. Each attempt is counted; after `maxAttempts` a hand-off is dead-lettered: no longer retried, visible in
 * /readyz and the metrics, and appended to the audit log as `tenant.handoff_dead_lettered` for an operator.
 */
export function startOutboxRelay(deps: {
  outbox: ActorOutbox;
  audit?: Pick<AuditRepository, 'append'>;
  dispatcher: { deliver(handOff: QueuedActorCommand): Promise<void> };
  /** The bound on one delivery (TEMPORAL_HANDOFF_TIMEOUT_MS), from which a pass's lease is computed. */
  handOffTimeoutMs: number;
  log: Logger;
  intervalMs: number;
  maxAttempts?: number;
}): { stop(): Promise<void> } {
  const maxAttempts = deps.maxAttempts ?? 20;
  const leaseSeconds = Math.ceil((PASS_SIZE * deps.handOffTimeoutMs) / 1000) + 5;
  // Set by stop(): a tick draining a backlog ends after its current pass, so shutting down waits for one pass at most.
  let stopping = false;
  async function sweep(): Promise<void> {
    for (let pass = 0; pass < PASSES_PER_TICK && !stopping; pass += 1) {
      const { leased, delivered } = await onePass();
      if (leased < PASS_SIZE || delivered < leased) return;
    }
  }

  async function onePass(): Promise<{ leased: number; delivered: number }> {
    const due = await deps.outbox.leaseDue(PASS_SIZE, leaseSeconds);
    const delivered: number[] = [];
    for (const entry of due) {
      const command = entry.command.kind;
      try {
        await deps.dispatcher.deliver(entry);
        delivered.push(entry.id);
      } catch (error) {
        const message = (error as Error).message;
        const { deadLettered } = await deps.outbox.recordDeliveryError(entry, message, maxAttempts);
        if (!deadLettered) {
          deps.log.warn({ tenantId: entry.tenantId, command, attempts: entry.attempts, err: error }, 'actor hand-off failed; will retry');
          continue;
        }
        deps.log.error({ tenantId: entry.tenantId, command, attempts: entry.attempts, err: error }, 'actor hand-off dead-lettered after its last attempt');
        await deps.audit?.append(
          {
            action: 'tenant.handoff_dead_lettered',
            tenant_id: entry.tenantId,
            target_id: entry.tenantId,
            target_type: 'tenant',
            metadata: { command, attempts: entry.attempts, outbox_id: entry.id, last_error: message.slice(0, 500) },
          },
          SYSTEM_ACTOR,
        );
      }
    }
    await deps.outbox.markDelivered(delivered);
    if (delivered.length) deps.log.info({ delivered: delivered.length }, 'outbox relay delivered actor commands');
    return { leased: due.length, delivered: delivered.length };
  }

  const ticks = runPeriodically(deps.intervalMs, sweep, (error) => deps.log.warn({ err: error }, 'outbox relay sweep failed'));
  return {
    async stop() {
      stopping = true;
      await ticks.stop();
    },
  };
}
