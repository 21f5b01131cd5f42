import { ApiKeyCreated, ApiKeyRotate } from '../../../domain/schemas/apiKey.ts';
import { ErrorBody, IdParams } from '../../../domain/schemas/common.ts';
import { toApiKey } from '../../../domain/apiKeys/apiKeyResponse.ts';
import { PLAINTEXT_WARNING } from '../../../domain/apiKeys/createApiKey.ts';
import { rotateApiKey } from '../../../domain/apiKeys/rotateApiKey.ts';
import { DEFAULT_ROTATION_GRACE_SECONDS } from '../../../domain/apiKeys/rotationGrace.ts';
import { defineRoute } from '../../routing/routeDefinition.ts';

export const rotateApiKeyRoute = defineRoute({
  method: 'post',
  path: '/v1/api-keys/{id}/rotate',
  operationId: 'rotateApiKey',
  access: 'tenants:write',
  summary: 'Replace a key by a new one with the same tenant, product, scopes and name; the old key works for grace_seconds more',
  tags: ['api-keys'],
  extension: true,
  params: IdParams,
  body: ApiKeyRotate,
  bodyRequired: false,
  responses: {
    201: { description: 'the new key; the plaintext is returned this once', schema: ApiKeyCreated },
    400: { description: 'invalid input', schema: ErrorBody },
    404: { description: 'no such key', schema: ErrorBody },
    409: { description: 'the key is revoked, expired or already rotated', schema: ErrorBody },
  },
  handler: async ({ params, body }, { meta, deps, caller }) => {
    const rotation = await rotateApiKey(deps, params.id, body.grace_seconds ?? DEFAULT_ROTATION_GRACE_SECONDS, meta, caller.reach);
    return { status: 201, body: { api_key: toApiKey(rotation.successor), plaintext: rotation.plaintext, warning: PLAINTEXT_WARNING } };
  },
});
