import type { OutboxCommand } from '../../domain/tenantActor/actorOutboxRepository.ts';
import type { AppContext } from '../appDependencies.ts';

/**
 * Hands the tenant's new admin to its actor and waits the configured time for the invite URL.
 * Any failure to reach Temporal leaves the committed outbox entry for the relay; the tenant is already safe.
 */
export async function provisionWithinWait(context: AppContext, tenantId: string, commandId: number): Promise<string | undefined> {
  if (!context.tenantActors) return undefined;
  try {
    const outcome = await context.tenantActors.provisionAndWait(tenantId, context.settings.PROVISIONING_WAIT_MS, async () => {
      // Not awaited: the answer does not depend on it, and should it fail the relay delivers once more (idempotent).
      context.stores.outbox
        .markDelivered([commandId])
        .catch((err: unknown) => context.log.warn({ tenantId, err }, 'could not mark the provisioning hand-off delivered; the relay will repeat it'));
    });
    return outcome?.status === 'succeeded' ? outcome.inviteUrl : undefined;
  } catch (error) {
    context.log.warn({ tenantId, err: error }, 'provisioning hand-off failed; the outbox relay will deliver it');
    return undefined;
  }
}

/** Delivers a claims push without holding up the response; the relay covers a failed attempt. */
export function handOffInBackground(context: AppContext, tenantId: string, command: OutboxCommand, commandId: number): void {
  const dispatcher = context.tenantActors;
  if (!dispatcher) return;
  dispatcher
    .deliver(tenantId, command)
    .then(() => context.stores.outbox.markDelivered([commandId]))
    .catch((error: unknown) => context.log.warn({ tenantId, command, err: error }, 'actor hand-off failed; the outbox relay will deliver it'));
}
