import type { OutboxCommand } from '../../domain/tenantActor/actorOutboxRepository.ts';
import type { AppContext } from '../appDependencies.ts';

/**
 * Hands the tenant's new admin to its actor and waits the configured time for the invite URL.
 * Any failure to reach Temporal leaves the committed outbox entry for the relay; the tenant is already safe.
 */
export async function provisionWithinWait(context: AppContext, tenantId: string, commandId: number): Promise<string | undefined> {
  if (!context.tenantActors) return undefined;
  const waitMs = context.settings.PROVISIONING_WAIT_MS;
  const attempt = context.tenantActors
    .provisionAndWait(tenantId, waitMs, async () => {
      // Not awaited: the answer does not depend on it, and should it fail the relay delivers once more (idempotent).
      context.stores.outbox
        .markDelivered([commandId])
        .catch((err: unknown) => context.log.warn({ tenantId, err }, 'could not mark the provisioning hand-off delivered; the relay will repeat it'));
    })
    .then(
      (outcome) => (outcome?.status === 'succeeded' ? outcome.inviteUrl : undefined),
      (error: unknown) => {
        context.log.warn({ tenantId, err: error }, 'provisioning hand-off failed; the outbox relay will deliver it');
        return undefined;
      },
    );
  // The gRPC deadline bounds the call, but not what precedes it (a connection being re-established to a Temporal
  // that is shutting down): the answer waits no longer than PROVISIONING_WAIT_MS whatever Temporal does.
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), waitMs);
  });
  try {
    return await Promise.race([attempt, deadline]);
  } finally {
    clearTimeout(timer);
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
