import { ApiKeyVerify, ApiKeyVerifyRequest } from '../../../domain/schemas/apiKey.ts';
import { verifyApiKey } from '../../../domain/apiKeys/verifyApiKey.ts';
import { defineRoute } from '../../routing/routeDefinition.ts';
import { readJsonBody } from '../../middleware/readJsonBody.ts';

export const verifyApiKeyRoute = defineRoute({
  method: 'post',
  path: '/v1/internal/api-keys/verify',
  operationId: 'verifyApiKey',
  access: 'keys:verify',
  summary: 'Verify an API key for a headless product; every failure is 200 with valid=false and a code saying why',
  tags: ['api-keys'],
  responses: { 200: { description: 'verdict', schema: ApiKeyVerify } },
  // The body is read here rather than validated by the route so that no bad input can turn into a 4xx.
  requestBodyForDocs: ApiKeyVerifyRequest,
  // Optional in the contract too: no body is a verdict (NOT_FOUND), like any other unusable input.
  bodyRequired: false,
  handler: async (_input, { deps, ctx, caller }) => {
    const body = await readJsonBody(ctx, deps.settings.BODY_LIMIT_BYTES).catch(() => undefined);
    const verdict = await verifyApiKey(body, deps.keyVerification, caller);
    deps.metrics?.verificationsByCode[verdict.code].inc();
    return { status: 200, body: verdict };
  },
});
