import { z } from 'zod';
import { ErrorBody, IdParams } from '../../domain/schemas/common.ts';
import { MembershipList } from '../../domain/schemas/membership.ts';
import { AppError } from '../../domain/errors.ts';
import { findTenantById } from '../../domain/tenants/findTenant.ts';
import { membershipsOfUser } from '../../domain/memberships/membershipsOfUser.ts';
import { IdpError } from '../../activities/idp/identityProvider.ts';
import { defineRoute, type RouteScope } from '../routeDefinition.ts';
import type { OperatorCommand } from '../tenantActors/tenantActorDispatcher.ts';

const OperatorRequest = z
  .strictObject({ requested_by: z.string().max(255).optional() })
  .meta({ id: 'OperatorRequest' });
const OperatorAccepted = z
  .object({ workflow_id: z.string(), signal: z.string() })
  .meta({ id: 'OperatorAccepted', description: 'the signal was delivered to the tenant actor workflow' });
const error = (description: string) => ({ description, schema: ErrorBody });

async function signalActor(command: OperatorCommand, tenantId: string, requestedBy: string | undefined, { em, deps }: RouteScope) {
  await findTenantById(em, tenantId);
  if (!deps.tenantActors) throw new AppError('unavailable', 'workflow service not configured');
  try {
    const workflowId = await deps.tenantActors.signalOperator(tenantId, command, requestedBy);
    return { status: 202, body: { workflow_id: workflowId, signal: command } };
  } catch (cause) {
    deps.log.warn({ err: cause, tenantId, command }, 'operator signal failed');
    throw new AppError('unavailable', 'the workflow service is unreachable; try again');
  }
}

const operatorRoute = (command: OperatorCommand, segment: string, summary: string) =>
  defineRoute({
    method: 'post',
    path: `/v1/tenants/{id}/idp/${segment}`,
    operationId: command,
    summary,
    tags: ['identity provider'],
    extension: true,
    params: IdParams,
    body: OperatorRequest,
    bodyRequired: false,
    responses: {
      202: { description: 'signal delivered; the outcome is appended to the audit log', schema: OperatorAccepted },
      400: error('invalid input'),
      404: error('no such tenant'),
      503: error('workflow service unreachable'),
    },
    handler: ({ params, body }, scope) => signalActor(command, params.id, body?.requested_by ?? scope.meta.actorId, scope),
  });

export const identityProviderRoutes = [
  operatorRoute('resendInvite', 'resend-invite', "Operators: resend the IT_ADMIN's invite (signal resendInvite to the tenant's workflow)"),
  operatorRoute('retryProvisioning', 'retry-provisioning', 'Operators: retry a failed provisioning (signal retryProvisioning)'),
  defineRoute({
    method: 'get',
    path: '/v1/users/{id}/memberships',
    operationId: 'listMemberships',
    summary: "A user's tenant memberships: links and org_roles from the identity provider, status/plan/products from the registry",
    tags: ['identity provider'],
    params: IdParams,
    responses: {
      200: { description: 'memberships (empty for an unknown user)', schema: MembershipList },
      400: error('invalid id'),
      503: error('identity provider unreachable'),
    },
    handler: async ({ params }, { em, deps }) => {
      if (!deps.identityProvider) throw new AppError('unavailable', 'identity provider not configured');
      let fromProvider;
      try {
        fromProvider = await deps.identityProvider.memberships(params.id);
      } catch (cause) {
        if (cause instanceof IdpError) throw new AppError('unavailable', `identity provider: ${cause.kind}`);
        throw cause;
      }
      return { status: 200, body: { items: await membershipsOfUser(em, fromProvider) } };
    },
  }),
];
