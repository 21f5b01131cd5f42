import { ErrorBody, IdParams } from '../../../domain/schemas/common.ts';
import { Tenant, TenantActivate, TenantCancel } from '../../../domain/schemas/tenant.ts';
import { changeTenantStatus } from '../../../domain/tenants/changeTenantStatus.ts';
import { toTenant } from '../../../domain/tenants/tenantResponse.ts';
import { defineRoute } from '../../routing/routeDefinition.ts';

/** POST /v1/tenants/{id}/activate and /cancel: the same contract and handler around one status command each. */
export const statusChangeRoute = (kind: 'activate' | 'cancel', operationId: string, summary: string) =>
  defineRoute({
    method: 'post',
    path: `/v1/tenants/{id}/${kind}`,
    operationId,
    access: 'tenants:write',
    tenantIn: 'params.id',
    summary,
    tags: ['tenants'],
    params: IdParams,
    body: kind === 'activate' ? TenantActivate : TenantCancel,
    bodyRequired: false,
    responses: {
      200: { description: 'the updated tenant', schema: Tenant },
      400: { description: 'invalid input', schema: ErrorBody },
      404: { description: 'no such tenant', schema: ErrorBody },
    },
    handler: async ({ params, body }, { meta, deps }) => {
      const command = kind === 'activate' ? { kind, body: body as TenantActivate } : { kind, body: body as TenantCancel };
      const tenant = await changeTenantStatus(deps, params.id, command, meta);
      return { status: 200, body: toTenant(tenant) };
    },
  });
