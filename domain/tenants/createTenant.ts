import { randomUUID } from 'node:crypto';
import { UniqueConstraintViolationException, type EntityManager } from '@mikro-orm/postgresql';
import { TenantEntity, type TenantRecord } from '../entities/tenantEntity.ts';
import { conflict } from '../errors.ts';
import type { RequestMeta } from '../requestMeta.ts';
import type { TenantCreate } from '../schemas/tenant.ts';
import { initialStatus } from '../tenantLifecycle.ts';
import { appendAuditEvent } from '../audit/appendAuditEvent.ts';
import { enqueueActorCommand } from '../tenantActor/actorOutbox.ts';

export interface CreatedTenant {
  tenant: TenantRecord;
  /** The outbox entry of the provisioning hand-off, when admin_email was given. */
  provisioningCommandId?: number;
}

/**
 * Inserts the tenant, its `tenant.created` event and (with admin_email) the provisioning hand-off in one
 * transaction: once committed, neither the tenant nor its provisioning can be lost. A taken slug is a conflict.
 */
export async function createTenant(em: EntityManager, input: TenantCreate, meta: RequestMeta): Promise<CreatedTenant> {
  const now = new Date();
  const { status, trialEndsAt } = initialStatus(input.kind, now);
  try {
    return await em.transactional(async (tx) => {
      const tenant = tx.create(TenantEntity, {
        id: randomUUID(),
        slug: input.slug,
        name: input.name,
        status,
        kind: input.kind,
        plan: input.plan,
        trialEndsAt,
        salesOwner: input.sales_owner ?? null,
        adminEmail: input.admin_email?.toLowerCase() ?? null,
        adminName: input.admin_name ?? null,
        erpCustomerId: null,
        paymentCustId: null,
        contractStart: null,
        contractEnd: null,
        createdAt: now,
        updatedAt: now,
      });
      await tx.flush();
      await appendAuditEvent(
        tx,
        {
          action: 'tenant.created',
          tenant_id: tenant.id,
          target_id: tenant.id,
          target_type: 'tenant',
          target_name: tenant.slug,
          metadata: { kind: tenant.kind, plan: tenant.plan, status, admin_email: tenant.adminEmail ?? undefined },
        },
        meta,
      );
      if (!tenant.adminEmail) return { tenant };
      return { tenant, provisioningCommandId: await enqueueActorCommand(tx, tenant.id, 'provision') };
    });
  } catch (error) {
    if (error instanceof UniqueConstraintViolationException) throw conflict(`a tenant with slug "${input.slug}" already exists`);
    throw error;
  }
}
