import { z } from 'zod';
import { AppError } from '../../../domain/errors.ts';
import { ErrorBody, IdParams } from '../../../domain/schemas/common.ts';
import { findTenant } from '../../../domain/tenants/findTenant.ts';
import { defineRoute, type RouteScope } from '../../routing/routeDefinition.ts';
import type { OperatorCommand } from '../../tenantActors/tenantActorDispatcher.ts';

const OperatorRequest = z
  .strictObject({ requested_by: z.string().max(255).optional() })
  .meta({ id: 'OperatorRequest' });

const OperatorAccepted = z
  .object({ workflow_id: z.string(), signal: z.string() })
  .meta({ id: 'OperatorAccepted', description: 'the signal was delivered to the tenant actor workflow' });

async function signalActor(command: OperatorCommand, tenantId: string, requestedBy: string | undefined, { deps }: RouteScope) {
  await findTenant(deps.stores.tenants, { by: 'id', id: tenantId });
  if (!deps.tenantActors) throw new AppError('unavailable', 'workflow service not configured');
  try {
    const workflowId = await deps.tenantActors.signalOperator(tenantId, command, requestedBy);
    return { status: 202, body: { workflow_id: workflowId, signal: command } };
  } catch (cause) {
    deps.log.warn({ err: cause, tenantId, command }, 'operator signal failed');
    throw new AppError('unavailable', 'the workflow service is unreachable; try again');
  }
}

/** The operators' API twins of the signals they can send from the Temporal Web UI. */
const operatorRoute = (command: OperatorCommand, segment: string, summary: string) =>
  defineRoute({
    method: 'post',
    path: `/v1/tenants/{id}/idp/${segment}`,
    operationId: command,
    access: 'provisioning:operate',
    summary,
    tags: ['identity provider'],
    extension: true,
    params: IdParams,
    body: OperatorRequest,
    bodyRequired: false,
    responses: {
      202: { description: 'signal delivered; the outcome is appended to the audit log', schema: OperatorAccepted },
      400: { description: 'invalid input', schema: ErrorBody },
      404: { description: 'no such tenant', schema: ErrorBody },
      503: { description: 'workflow service unreachable', schema: ErrorBody },
    },
    handler: ({ params, body }, scope) => signalActor(command, params.id, body?.requested_by ?? scope.meta.actorId, scope),
  });

export const resendInviteRoute = operatorRoute('resendInvite', 'resend-invite', "Operators: resend the IT_ADMIN's invite (signal resendInvite to the tenant's workflow)");
export const retryProvisioningRoute = operatorRoute('retryProvisioning', 'retry-provisioning', 'Operators: retry a failed provisioning (signal retryProvisioning)');
