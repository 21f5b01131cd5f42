import { defineEntity, p } from '@mikro-orm/postgresql';

export const ApiKeyEntity = defineEntity({
  name: 'ApiKey',
  tableName: 'api_keys',
  properties: {
    id: p.uuid().primary(),
    tenantId: p.uuid(),
    product: p.string().nullable(),
    name: p.string(),
    scopes: p.array(),
    prefix: p.string().unique(),
    keyHash: p.blob().lazy(),
    createdBy: p.string().nullable(),
    lastUsedAt: p.datetime().nullable(),
    revokedAt: p.datetime().nullable(),
    expiresAt: p.datetime().nullable(),
    rotatedFrom: p.uuid().nullable(),
    createdAt: p.datetime(),
  },
});
