import { invalidInput, notFound } from '../errors.ts';
import type { RequestMeta } from '../requestMeta.ts';
import type { TenantActivate, TenantCancel } from '../schemas/tenant.ts';
import { statusAfter } from '../tenantLifecycle.ts';
import type { TenantRecord } from './tenantRecord.ts';
import type { LockedTenant, TenantChange } from './tenantRepository.ts';
import type { RegistryContext } from '../registryContext.ts';
import { tenantChangeEffects } from '../changeEffects/tenantChangeEffects.ts';

export type StatusCommand = { kind: 'activate'; body: TenantActivate } | { kind: 'cancel'; body: TenantCancel };

/**
 * The rule of activate and cancel: `active` or `frozen` from whatever state, applying the activate body's fields.
 * Status and plan are claims, so the change also pushes the tenant's bundle to its users.
 */
export function planStatusChange(tenant: LockedTenant, command: StatusCommand, now: Date): TenantChange<TenantRecord> {
  const update: Partial<TenantRecord> = { status: statusAfter(command.kind), updatedAt: now };
  if (command.kind === 'activate') {
    const { plan, contract_start, contract_end, erp_customer_id } = command.body;
    if (plan !== undefined) update.plan = plan;
    if (contract_start !== undefined) update.contractStart = contract_start;
    if (contract_end !== undefined) update.contractEnd = contract_end;
    if (erp_customer_id !== undefined) update.erpCustomerId = erp_customer_id;
  }
  const after: TenantRecord = { ...tenant, ...update };
  // The body's own refine only sees the dates it carries; a new end may not precede the stored start (or vice versa).
  if (after.contractStart && after.contractEnd && String(after.contractEnd).slice(0, 10) < String(after.contractStart).slice(0, 10)) {
    throw invalidInput('contract_end must not be before contract_start');
  }
  return {
    update,
    events: [{
      action: command.kind === 'activate' ? 'tenant.activated' : 'tenant.cancelled',
      tenant_id: tenant.id,
      target_id: tenant.id,
      target_type: 'tenant',
      target_name: tenant.slug,
      metadata: { from: tenant.status, to: after.status, ...command.body },
    }],
    pushClaims: true,
    result: after,
  };
}

export async function changeTenantStatus({ stores, effects }: RegistryContext, id: string, command: StatusCommand, meta: RequestMeta): Promise<TenantRecord> {
  const changed = await stores.tenants.change(id, meta, (tenant, now) => planStatusChange(tenant, command, now));
  if (!changed) throw notFound('tenant');
  effects.follow(tenantChangeEffects(id, changed));
  return changed.result;
}
