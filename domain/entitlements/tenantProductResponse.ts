import type { TenantProductRecord } from './tenantProductRecord.ts';
import type { TenantProduct } from '../schemas/entitlement.ts';
import { isoTimestamp } from '../isoTimestamp.ts';

export const toTenantProduct = (r: TenantProductRecord): TenantProduct => ({
  tenant_id: r.tenantId,
  product: r.product,
  enabled: r.enabled,
  config: r.config,
  expires_at: r.expiresAt ? isoTimestamp(r.expiresAt) : null,
  created_at: isoTimestamp(r.createdAt),
  updated_at: isoTimestamp(r.updatedAt),
});
