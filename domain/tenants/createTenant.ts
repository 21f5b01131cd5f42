import { randomUUID } from 'node:crypto';
import { conflict } from '../errors.ts';
import type { RequestMeta } from '../requestMeta.ts';
import type { TenantCreate } from '../schemas/tenant.ts';
import { initialStatus } from '../tenantLifecycle.ts';
import type { TenantRecord } from './tenantRecord.ts';
import type { RegistryContext } from '../registryContext.ts';
import type { OutboxCommand } from '../tenantActor/tenantActorCommand.ts';
import { TENANT_LISTING } from '../reads/listingNames.ts';

export interface CreatedTenant {
  tenant: TenantRecord;
  /** The IT_ADMIN's invite link, when provisioning ended within the configured wait (answered once, never stored). */
  inviteUrl?: string;
}

/**
 * The hand-off a new tenant gives its actor: provisioning of its IT_ADMIN when it has one, else a claims push, which
 * starts the actor and with it the tenant's timeline (trial timers).
 */
export const newTenantHandOff = (tenant: TenantRecord): OutboxCommand => (tenant.adminEmail ? { kind: 'provision' } : { kind: 'pushClaims' });

/**
 * The tenant, its `tenant.created` event and the hand-off to its actor, in one commit; then, with admin_email, the
 * wait for the invite link (the committed hand-off outlives a wait that runs out).
 */
export async function createTenant({ stores, effects }: RegistryContext, input: TenantCreate, meta: RequestMeta): Promise<CreatedTenant> {
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
    settings: {},
    createdAt: now,
    updatedAt: now,
  };
  const handOff = newTenantHandOff(tenant);
  const created = await stores.tenants.create(
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
    handOff,
  );
  if (created === 'slug_taken') throw conflict(`a tenant with slug "${input.slug}" already exists`);
  if (handOff.kind !== 'provision') {
    effects.follow({ handOffs: [created.handOff], staleListings: [TENANT_LISTING] });
    return { tenant };
  }
  effects.follow({ staleListings: [TENANT_LISTING] });
  const inviteUrl = await effects.provisionWithinWait(created.handOff);
  return inviteUrl ? { tenant, inviteUrl } : { tenant };
}
