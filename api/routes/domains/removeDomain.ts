import { ErrorBody, IdParams } from '../../../domain/schemas/common.ts';
import { removeDomain } from '../../../domain/domains/removeDomain.ts';
import { defineRoute } from '../../routing/routeDefinition.ts';

export const removeDomainRoute = defineRoute({
  method: 'delete',
  path: '/v1/domains/{id}',
  operationId: 'removeDomain',
  access: 'members:write',
  summary: "Remove a domain from the tenant (a verified one leaves the tenant's organization)",
  tags: ['domains'],
  extension: true,
  params: IdParams,
  responses: {
    204: { description: 'removed' },
    400: { description: 'invalid id', schema: ErrorBody },
    404: { description: 'no such domain', schema: ErrorBody },
  },
  handler: async ({ params }, { meta, deps, caller }) => {
    await removeDomain(deps, params.id, meta, caller.reach);
    return { status: 204 };
  },
});
