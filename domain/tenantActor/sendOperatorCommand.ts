import { AppError } from '../errors.ts';
import type { RegistryContext } from '../registryContext.ts';
import type { RequestMeta } from '../requestMeta.ts';
import { findTenant } from '../tenants/findTenant.ts';
import type { OperatorCommand } from './tenantActorCommand.ts';

/**
 * An operator's command to an existing tenant's actor, delivered now (unlike a change's hand-off, nothing is
 * committed first: an unreachable workflow service is the caller's `unavailable`, to try again). The requester is
 * the authenticated caller (`meta.recordedBy`); what the caller says of itself (`note`) cannot take its place, so
 * no caller can name someone else as the one who asked. Answers the actor's workflow id.
 */
export async function sendOperatorCommand(
  { stores, tenantActorSignals }: RegistryContext,
  tenantId: string,
  kind: OperatorCommand['kind'],
  note: string | undefined,
  meta: RequestMeta,
): Promise<string> {
  await findTenant(stores.tenants, { by: 'id', id: tenantId });
  if (!tenantActorSignals) throw new AppError('unavailable', 'workflow service not configured');
  const command: OperatorCommand = { kind, requested_via: 'api', ...(meta.recordedBy ? { requested_by: meta.recordedBy } : {}), ...(note ? { note } : {}) };
  try {
    return await tenantActorSignals.signalOperator(tenantId, command);
  } catch {
    // The port logged what Temporal answered; the caller learns only that it may try again.
    throw new AppError('unavailable', 'the workflow service is unreachable; try again');
  }
}
