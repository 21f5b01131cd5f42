import { AppError } from '../errors.ts';
import type { RegistryContext } from '../registryContext.ts';
import { findTenant } from '../tenants/findTenant.ts';
import type { OperatorCommand } from './tenantActorCommand.ts';

/**
 * An operator's command to an existing tenant's actor, delivered now (unlike a change's hand-off, nothing is
 * committed first: an unreachable workflow service is the caller's `unavailable`, to try again). Answers the actor's
 * workflow id.
 */
export async function sendOperatorCommand({ stores, tenantActorSignals }: RegistryContext, tenantId: string, command: OperatorCommand): Promise<string> {
  await findTenant(stores.tenants, { by: 'id', id: tenantId });
  if (!tenantActorSignals) throw new AppError('unavailable', 'workflow service not configured');
  try {
    return await tenantActorSignals.signalOperator(tenantId, command);
  } catch {
    // The port logged what Temporal answered; the caller learns only that it may try again.
    throw new AppError('unavailable', 'the workflow service is unreachable; try again');
  }
}
