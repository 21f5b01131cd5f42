import { z } from 'zod';
import { ErrorBody, IdParams } from '../../../domain/schemas/common.ts';
import { sendOperatorCommand } from '../../../domain/tenantActor/sendOperatorCommand.ts';
import type { OperatorCommand } from '../../../domain/tenantActor/tenantActorCommand.ts';
import { defineRoute } from '../../routing/routeDefinition.ts';

const OperatorRequest = z
  .strictObject({
    requested_by: z
      .string()
      .max(255)
      .optional()
      .meta({ description: "who you say asked, recorded as the outcome event's note; its requested_by is the token's client (absent when authentication is off)" }),
  })
  .meta({ id: 'OperatorRequest' });

const OperatorAccepted = z
  .object({ workflow_id: z.string(), signal: z.string() })
  .meta({ id: 'OperatorAccepted', description: 'the signal was delivered to the tenant actor workflow' });

/** The operators' API twins of the signals they can send from the Temporal Web UI. */
const operatorRoute = (command: OperatorCommand['kind'], segment: string, summary: string) =>
  defineRoute({
    method: 'post',
    path: `/v1/tenants/{id}/idp/${segment}`,
    operationId: command,
    access: 'provisioning:operate',
    tenantIn: 'params.id',
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
    handler: async ({ params, body }, { meta, deps }) => {
      const workflowId = await sendOperatorCommand(deps, params.id, command, body?.requested_by, meta);
      return { status: 202, body: { workflow_id: workflowId, signal: command } };
    },
  });

export const resendInviteRoute = operatorRoute('resendInvite', 'resend-invite', "Operators: resend the IT_ADMIN's invite (signal resendInvite to the tenant's workflow)");
export const retryProvisioningRoute = operatorRoute('retryProvisioning', 'retry-provisioning', 'Operators: retry a failed provisioning (signal retryProvisioning)');
