import { createApiKeyRoute } from './createApiKey.ts';
import { listApiKeysRoute } from './listApiKeys.ts';
import { revokeApiKeyRoute } from './revokeApiKey.ts';
import { rotateApiKeyRoute } from './rotateApiKey.ts';
import { verifyApiKeyRoute } from './verifyApiKey.ts';

export const apiKeyRoutes = [listApiKeysRoute, createApiKeyRoute, revokeApiKeyRoute, rotateApiKeyRoute, verifyApiKeyRoute];
