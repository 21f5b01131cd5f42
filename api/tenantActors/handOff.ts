import type { OutboxCommand } from '../../domain/tenantActor/actorOutbox.ts';
import { markDelivered } from '../../domain/tenantActor/actorOutbox.ts';
import type { AppDependencies } from '../appDependencies.ts';

/**
 * Hands the tenant's new admin to its actor and waits the configured time for the invite URL.
 * Any failure to reach Temporal leaves the committed outbox entry for the relay; the tenant is already safe.
 */
export async function provisionWithinWait(deps: AppDependencies, tenantId: string, commandId: number): Promise<string | undefined> {
  if (!deps.tenantActors) return undefined;
  try {
    const outcome = await deps.tenantActors.provisionAndWait(tenantId, deps.settings.PROVISIONING_WAIT_MS, async () => {
      // Not awaited: the answer does not depend on it, and should it fail the relay delivers once more (idempotent).
      markDelivered(deps.orm.em.fork(), [commandId]).catch((err: unknown) =>
        deps.log.warn({ tenantId, err }, 'could not mark the provisioning hand-off delivered; the relay will repeat it'),
      );
    });
    return outcome?.status === 'succeeded' ? outcome.inviteUrl : undefined;
  } catch (error) {
    deps.log.warn({ tenantId, err: error }, 'provisioning hand-off failed; the outbox relay will deliver it');
    return undefined;
  }
}

/** Delivers a claims push without holding up the response; the relay covers a failed attempt. */
export function handOffInBackground(deps: AppDependencies, tenantId: string, command: OutboxCommand, commandId: number): void {
  const dispatcher = deps.tenantActors;
  if (!dispatcher) return;
  dispatcher
    .deliver(tenantId, command)
    .then(() => markDelivered(deps.orm.em.fork(), [commandId]))
    .catch((error: unknown) => deps.log.warn({ tenantId, command, err: error }, 'actor hand-off failed; the outbox relay will deliver it'));
}
