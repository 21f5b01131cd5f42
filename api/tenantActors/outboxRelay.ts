import type { Logger } from '../../platform/logger.ts';
import { runPeriodically } from '../../platform/periodicTask.ts';
import type { ActorOutbox } from '../../domain/tenantActor/actorOutboxRepository.ts';
import type { TenantActorDispatcher } from './tenantActorDispatcher.ts';

/**
 * Delivers actor commands that their request could not hand off (Temporal unreachable, process stopped
 * mid-request). Safe with several replicas: rows are leased with SKIP LOCKED, and delivery is idempotent.
 */
export function startOutboxRelay(deps: { outbox: ActorOutbox; dispatcher: TenantActorDispatcher; log: Logger; intervalMs: number }): { stop(): Promise<void> } {
  async function sweep(): Promise<void> {
    const due = await deps.outbox.leaseDue(50);
    const delivered: number[] = [];
    for (const entry of due) {
      try {
        await deps.dispatcher.deliver(entry.tenantId, entry.command);
        delivered.push(entry.id);
      } catch (error) {
        deps.log.warn({ tenantId: entry.tenantId, command: entry.command, attempts: entry.attempts, err: error }, 'actor hand-off failed; will retry');
        await deps.outbox.recordDeliveryError(entry.id, (error as Error).message);
      }
    }
    await deps.outbox.markDelivered(delivered);
    if (delivered.length) deps.log.info({ delivered: delivered.length }, 'outbox relay delivered actor commands');
  }

  return runPeriodically(deps.intervalMs, sweep, (error) => deps.log.warn({ err: error }, 'outbox relay sweep failed'));
}
