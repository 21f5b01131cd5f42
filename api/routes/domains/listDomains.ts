import { ErrorBody, IdParams } from '../../../domain/schemas/common.ts';
import { DomainList } from '../../../domain/schemas/domains.ts';
import { listDomains } from '../../../domain/domains/listDomains.ts';
import { toDomain } from '../../../domain/domains/domainResponse.ts';
import { defineRoute } from '../../routing/routeDefinition.ts';

export const listDomainsRoute = defineRoute({
  method: 'get',
  path: '/v1/tenants/{id}/domains',
  operationId: 'listDomains',
  access: 'members:read',
  tenantIn: 'params.id',
  summary: "The tenant's domains by name, each with its state and the TXT record to publish",
  tags: ['domains'],
  extension: true,
  params: IdParams,
  responses: {
    200: { description: 'the domains', schema: DomainList },
    400: { description: 'invalid id', schema: ErrorBody },
    404: { description: 'no such tenant', schema: ErrorBody },
  },
  handler: async ({ params }, { deps }) => ({ status: 200, body: { items: (await listDomains(deps, params.id)).map(toDomain) } }),
});
