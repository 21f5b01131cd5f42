import type { TenantProductRecord } from './tenantProductRecord.ts';
import type { TenantProduct } from '../schemas/entitlement.ts';

export const toTenantProduct = (r: TenantProductRecord): TenantProduct => ({
  tenant_id: r.tenantId,
  product: r.product,
  enabled: r.enabled,
  config: r.config,
  expires_at: r.expiresAt ? r.expiresAt.toISOString() : null,
  created_at: r.createdAt.toISOString(),
  updated_at: r.updatedAt.toISOString(),
});
