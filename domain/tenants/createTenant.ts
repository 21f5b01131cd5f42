import { randomUUID } from 'node:crypto';
import { UniqueConstraintViolationException, type EntityManager } from '@mikro-orm/postgresql';
import { TenantEntity, type TenantRecord } from '../entities/tenantEntity.ts';
import { conflict } from '../errors.ts';
import type { RequestMeta } from '../requestMeta.ts';
import type { TenantCreate } from '../schemas/tenant.ts';
import { initialStatus } from '../tenantLifecycle.ts';
import { appendAuditEvent } from '../audit/appendAuditEvent.ts';

/** Inserts the tenant and its `tenant.created` event in one transaction; a taken slug is a conflict. */
export async function createTenant(em: EntityManager, input: TenantCreate, meta: RequestMeta): Promise<TenantRecord> {
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
      return tenant;
    });
  } catch (error) {
    if (error instanceof UniqueConstraintViolationException) throw conflict(`a tenant with slug "${input.slug}" already exists`);
    throw error;
  }
}
