import type { TenantProductRecord } from '../domain/entitlements/tenantProductRecord.ts';
import type { TenantRecord } from '../domain/tenants/tenantRecord.ts';
import type { TenantEntity } from './entities/tenantEntity.ts';
import type { TenantProductEntity } from './entities/tenantProductEntity.ts';

type Loaded<E extends { class: abstract new (...args: never[]) => unknown }> = InstanceType<E['class']>;

/** The ORM's entities as the domain's plain records (nullable columns as null, never undefined). */
export const toTenantRecord = (e: Loaded<typeof TenantEntity>): TenantRecord => ({
  id: e.id,
  slug: e.slug,
  name: e.name,
  status: e.status,
  kind: e.kind,
  plan: e.plan,
  erpCustomerId: e.erpCustomerId ?? null,
  paymentCustId: e.paymentCustId ?? null,
  trialEndsAt: e.trialEndsAt ?? null,
  trialRemindedFor: e.trialRemindedFor ?? null,
  contractStart: e.contractStart ?? null,
  contractEnd: e.contractEnd ?? null,
  salesOwner: e.salesOwner ?? null,
  adminEmail: e.adminEmail ?? null,
  adminName: e.adminName ?? null,
  createdAt: e.createdAt,
  updatedAt: e.updatedAt,
});

export const toTenantProductRecord = (e: Loaded<typeof TenantProductEntity>): TenantProductRecord => ({
  tenantId: e.tenantId,
  product: e.product,
  enabled: e.enabled,
  config: e.config,
  expiresAt: e.expiresAt ?? null,
  expiryAnnouncedFor: e.expiryAnnouncedFor ?? null,
  createdAt: e.createdAt,
  updatedAt: e.updatedAt,
});

