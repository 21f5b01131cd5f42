import { ApiKeyList } from '../../../domain/schemas/apiKey.ts';
import { ErrorBody, TenantIdQuery } from '../../../domain/schemas/common.ts';
import { listApiKeys } from '../../../domain/apiKeys/listApiKeys.ts';
import { defineRoute } from '../../routing/routeDefinition.ts';

export const listApiKeysRoute = defineRoute({
  method: 'get',
  path: '/v1/api-keys',
  operationId: 'listApiKeys',
  access: 'tenants:read',
  tenantIn: 'query.tenant_id',
  summary: "List a tenant's API keys (never the plaintext), revoked and expired ones included",
  tags: ['api-keys'],
  query: TenantIdQuery,
  responses: {
    200: { description: 'keys', schema: ApiKeyList },
    400: { description: 'invalid input', schema: ErrorBody },
    404: { description: 'no such tenant', schema: ErrorBody },
  },
  handler: async ({ query }, { deps }) => ({ status: 200, jsonText: await listApiKeys(deps, query.tenant_id) }),
});
