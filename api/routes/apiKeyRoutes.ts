import { ApiKeyCreate, ApiKeyCreated, ApiKeyList, ApiKeyVerify, ApiKeyVerifyRequest } from '../../domain/schemas/apiKey.ts';
import { ErrorBody, IdParams, TenantIdQuery } from '../../domain/schemas/common.ts';
import { toApiKey } from '../../domain/apiKeys/apiKeyResponse.ts';
import { PLAINTEXT_WARNING, createApiKey } from '../../domain/apiKeys/createApiKey.ts';
import { listApiKeys } from '../../domain/apiKeys/listApiKeys.ts';
import { revokeApiKey } from '../../domain/apiKeys/revokeApiKey.ts';
import { verifyApiKey } from '../../domain/apiKeys/verifyApiKey.ts';
import { defineRoute } from '../routeDefinition.ts';
import { readJsonBody } from '../middleware/readJsonBody.ts';

const tags = ['api-keys'];
const error = (description: string) => ({ description, schema: ErrorBody });

export const apiKeyRoutes = [
  defineRoute({
    method: 'get',
    path: '/v1/api-keys',
    operationId: 'listApiKeys',
    summary: "List a tenant's API keys (never the plaintext)",
    tags,
    query: TenantIdQuery,
    responses: { 200: { description: 'keys', schema: ApiKeyList }, 400: error('invalid input'), 404: error('no such tenant') },
    handler: async ({ query }, { em }) => ({ status: 200, body: { items: (await listApiKeys(em, query.tenant_id)).map(toApiKey) } }),
  }),
  defineRoute({
    method: 'post',
    path: '/v1/api-keys',
    operationId: 'createApiKey',
    summary: 'Create an API key; the plaintext is returned this once',
    tags,
    body: ApiKeyCreate,
    responses: { 201: { description: 'created', schema: ApiKeyCreated }, 400: error('invalid input'), 404: error('no such tenant') },
    handler: async ({ body }, { em, meta }) => {
      const { record, plaintext } = await createApiKey(em, body, meta);
      return { status: 201, body: { api_key: toApiKey(record), plaintext, warning: PLAINTEXT_WARNING } };
    },
  }),
  defineRoute({
    method: 'delete',
    path: '/v1/api-keys/{id}',
    operationId: 'revokeApiKey',
    summary: 'Revoke an API key (sets revoked_at; idempotent)',
    tags,
    params: IdParams,
    responses: { 204: { description: 'revoked' }, 400: error('invalid id'), 404: error('no such key') },
    handler: async ({ params }, { em, meta, deps }) => {
      const { prefix } = await revokeApiKey(em, params.id, meta);
      // Committed: from now on this replica refuses the key; other replicas hear of it through NOTIFY.
      deps.cache?.invalidateApiKey(prefix);
      return { status: 204 };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/internal/api-keys/verify',
    operationId: 'verifyApiKey',
    summary: 'Verify an API key for a headless product; every failure is 200 with valid=false',
    tags,
    responses: { 200: { description: 'verdict', schema: ApiKeyVerify } },
    // The body is read here rather than validated by the route so that no bad input can turn into a 4xx.
    requestBodyForDocs: ApiKeyVerifyRequest,
    handler: async (_input, { sql, deps, ctx }) => {
      const body = await readJsonBody(ctx, deps.settings.BODY_LIMIT_BYTES).catch(() => undefined);
      const key = (body as { key?: unknown } | undefined)?.key;
      const verdict = await verifyApiKey(sql, key, {
        lastUsedResolutionSeconds: deps.settings.API_KEY_LAST_USED_RESOLUTION_SECONDS,
        markUsed: (keyId) => deps.lastUsedMarks!.mark(keyId),
        cache: deps.cache,
      });
      return { status: 200, body: verdict };
    },
  }),
];
