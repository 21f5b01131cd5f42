import { LockMode, type EntityManager } from '@mikro-orm/postgresql';
import { TenantEntity, type TenantRecord } from '../entities/tenantEntity.ts';
import { invalidInput, notFound } from '../errors.ts';
import type { RequestMeta } from '../requestMeta.ts';
import type { TenantActivate, TenantCancel } from '../schemas/tenant.ts';
import { statusAfter } from '../tenantLifecycle.ts';
import { appendAuditEvent } from '../audit/appendAuditEvent.ts';
import { enqueueActorCommand } from '../tenantActor/actorOutbox.ts';

type Command = { kind: 'activate'; body: TenantActivate } | { kind: 'cancel'; body: TenantCancel };

/**
 * Moves a tenant to `active` or `frozen` from whatever state it is in, applying the activate body's fields.
 * The row is locked so concurrent commands on one tenant serialise and each audit event sees its own before-state.
 * Status and plan are claims, so the change also queues a push of the tenant's bundle to its users.
 */
export async function changeTenantStatus(
  em: EntityManager,
  id: string,
  command: Command,
  meta: RequestMeta,
): Promise<{ tenant: TenantRecord; claimsPushCommandId: number }> {
  return em.transactional(async (tx) => {
    const tenant = await tx.findOne(TenantEntity, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!tenant) throw notFound('tenant');
    const from = tenant.status;
    tenant.status = statusAfter(command.kind);
    tenant.updatedAt = new Date();
    if (command.kind === 'activate') {
      const { plan, contract_start, contract_end, erp_customer_id } = command.body;
      if (plan !== undefined) tenant.plan = plan;
      if (contract_start !== undefined) tenant.contractStart = contract_start;
      if (contract_end !== undefined) tenant.contractEnd = contract_end;
      if (erp_customer_id !== undefined) tenant.erpCustomerId = erp_customer_id;
      // The body's own refine only sees the dates it carries; a new end may not precede the stored start (or vice versa).
      if (tenant.contractStart && tenant.contractEnd && String(tenant.contractEnd).slice(0, 10) < String(tenant.contractStart).slice(0, 10)) {
        throw invalidInput('contract_end must not be before contract_start');
      }
    }
    await tx.flush();
    await appendAuditEvent(
      tx,
      {
        action: command.kind === 'activate' ? 'tenant.activated' : 'tenant.cancelled',
        tenant_id: tenant.id,
        target_id: tenant.id,
        target_type: 'tenant',
        target_name: tenant.slug,
        metadata: { from, to: tenant.status, ...command.body },
      },
      meta,
    );
    return { tenant, claimsPushCommandId: await enqueueActorCommand(tx, tenant.id, 'pushClaims') };
  });
}
