import { conflict, notFound } from '../errors.ts';
import type { RequestMeta } from '../requestMeta.ts';
import type { TenantArchive } from '../schemas/tenant.ts';
import type { TenantRecord } from './tenantRecord.ts';
import type { LockedTenant, TenantChange } from './tenantRepository.ts';
import type { RegistryContext } from '../registryContext.ts';
import { tenantChangeEffects } from '../changeEffects/tenantChangeEffects.ts';

/** Archive from any state but archived (a conflict): the tenant's keys stop verifying and its users' claims say so. */
export function planArchive(tenant: LockedTenant, body: TenantArchive, now: Date): TenantChange<TenantRecord> {
  if (tenant.status === 'archived') throw conflict('tenant is already archived');
  const update: Partial<TenantRecord> = { status: 'archived', updatedAt: now };
  return {
    update,
    events: [{
      action: 'tenant.archived',
      tenant_id: tenant.id,
      target_id: tenant.id,
      target_type: 'tenant',
      target_name: tenant.slug,
      metadata: { from: tenant.status, to: 'archived', ...(body.reason === undefined ? {} : { reason: body.reason }) },
    }],
    pushClaims: true,
    result: { ...tenant, ...update },
  };
}

export async function archiveTenant({ stores, effects }: RegistryContext, id: string, body: TenantArchive, meta: RequestMeta): Promise<TenantRecord> {
  const changed = await stores.tenants.change(id, meta, (tenant, now) => planArchive(tenant, body, now));
  if (!changed) throw notFound('tenant');
  effects.follow(tenantChangeEffects(id, changed));
  return changed.result;
}
