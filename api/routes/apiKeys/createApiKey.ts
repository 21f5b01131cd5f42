import { ApiKeyCreate, ApiKeyCreated } from '../../../domain/schemas/apiKey.ts';
import { ErrorBody } from '../../../domain/schemas/common.ts';
import { toApiKey } from '../../../domain/apiKeys/apiKeyResponse.ts';
import { PLAINTEXT_WARNING, createApiKey } from '../../../domain/apiKeys/createApiKey.ts';
import { defineRoute } from '../../routing/routeDefinition.ts';

export const createApiKeyRoute = defineRoute({
  method: 'post',
  path: '/v1/api-keys',
  operationId: 'createApiKey',
  access: 'tenants:write',
  tenantIn: 'body.tenant_id',
  summary: 'Create an API key, optionally expiring; the plaintext is returned this once',
  tags: ['api-keys'],
  body: ApiKeyCreate,
  responses: {
    201: {
      description: 'created',
      schema: ApiKeyCreated,
      links: {
        revokeApiKey: { operationId: 'revokeApiKey', parameters: { id: '$response.body#/api_key/id' } },
        rotateApiKey: { operationId: 'rotateApiKey', parameters: { id: '$response.body#/api_key/id' } },
        listApiKeys: { operationId: 'listApiKeys', parameters: { tenant_id: '$response.body#/api_key/tenant_id' } },
      },
    },
    400: { description: 'invalid input (expires_at not in the future included)', schema: ErrorBody },
    404: { description: 'no such tenant', schema: ErrorBody },
  },
  handler: async ({ body }, { meta, deps }) => {
    const { record, plaintext } = await createApiKey(deps, body, meta);
    return { status: 201, body: { api_key: toApiKey(record), plaintext, warning: PLAINTEXT_WARNING } };
  },
});
