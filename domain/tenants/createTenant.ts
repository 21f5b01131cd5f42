import { randomUUID } from 'node:crypto';
import { conflict } from '../errors.ts';
import type { RequestMeta } from '../requestMeta.ts';
import type { TenantCreate } from '../schemas/tenant.ts';
import { initialStatus } from '../tenantLifecycle.ts';
import type { TenantRecord } from './tenantRecord.ts';
import type { TenantRepository } from './tenantRepository.ts';

export interface CreatedTenant {
  tenant: TenantRecord;
  /** The outbox entry of the provisioning hand-off, when admin_email was given. */
  provisioningCommandId?: number;
  /** Without admin_email: the outbox entry that starts the tenant's actor for its timeline (trial timers). */
  actorCommandId?: number;
}

/** The tenant, its `tenant.created` event and the hand-off to its actor (provisioning with admin_email), in one commit. */
export async function createTenant(tenants: TenantRepository, input: TenantCreate, meta: RequestMeta): Promise<CreatedTenant> {
  const now = new Date();
  const { status, trialEndsAt } = initialStatus(input.kind, now);
  const tenant: TenantRecord = {
    id: randomUUID(),
    slug: input.slug,
    name: input.name,
    status,
    kind: input.kind,
    plan: input.plan,
    trialEndsAt,
    trialRemindedFor: null,
    salesOwner: input.sales_owner ?? null,
    adminEmail: input.admin_email?.toLowerCase() ?? null,
    adminName: input.admin_name ?? null,
    erpCustomerId: null,
    paymentCustId: null,
    contractStart: null,
    contractEnd: null,
    createdAt: now,
    updatedAt: now,
  };
  const created = await tenants.create(
    tenant,
    {
      action: 'tenant.created',
      tenant_id: tenant.id,
      target_id: tenant.id,
      target_type: 'tenant',
      target_name: tenant.slug,
      // The e-mail stays in the tenant's row, which can be erased; the append-only log only says an admin was invited.
      metadata: { kind: tenant.kind, plan: tenant.plan, status, admin_invited: tenant.adminEmail !== null },
    },
    meta,
  );
  if (created === 'slug_taken') throw conflict(`a tenant with slug "${input.slug}" already exists`);
  return tenant.adminEmail ? { tenant, provisioningCommandId: created.handOffCommandId } : { tenant, actorCommandId: created.handOffCommandId };
}
