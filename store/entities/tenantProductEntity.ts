import { defineEntity, p } from '@mikro-orm/postgresql';

export const TenantProductEntity = defineEntity({
  name: 'TenantProduct',
  tableName: 'tenant_products',
  properties: {
    tenantId: p.uuid().primary(),
    product: p.string().primary(),
    enabled: p.boolean(),
    config: p.json<Record<string, unknown>>(),
    expiresAt: p.datetime().nullable(),
    expiryAnnouncedFor: p.datetime().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
