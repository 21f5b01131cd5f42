import { LockMode, type EntityManager } from '@mikro-orm/postgresql';
import { TenantEntity } from '../entities/tenantEntity.ts';
import { TenantProductEntity, type TenantProductRecord } from '../entities/tenantProductEntity.ts';
import { conflict, invalidInput, notFound } from '../errors.ts';
import type { RequestMeta } from '../requestMeta.ts';
import type { CatalogRequest } from '../schemas/catalog.ts';
import { TRIAL_DAYS, addDays } from '../tenantLifecycle.ts';
import { appendAuditEvent } from '../audit/appendAuditEvent.ts';
import { enqueueActorCommand } from '../tenantActor/actorOutbox.ts';
import { findCatalogProduct } from './listCatalog.ts';

const CLOSED_STATUSES = new Set(['frozen', 'archived']);

/**
 * Grants a 14-day trial entitlement. One trial per tenant and product: a product the tenant already has
 * (or had on trial) is a conflict, and so is a frozen or archived tenant. The new product is a claim: its push is queued.
 */
export async function startTrial(
  em: EntityManager,
  request: CatalogRequest,
  meta: RequestMeta,
): Promise<{ entitlement: TenantProductRecord; claimsPushCommandId: number }> {
  return em.transactional(async (tx) => {
    const tenant = await tx.findOne(TenantEntity, { id: request.tenant_id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!tenant) throw notFound('tenant');
    const product = await findCatalogProduct(tx, request.product);
    if (!product.supportsTrial) throw invalidInput(`product "${product.key}" does not offer a trial`);
    if (CLOSED_STATUSES.has(tenant.status)) throw conflict(`tenant is ${tenant.status}; a trial cannot start`);
    if (await tx.findOne(TenantProductEntity, { tenantId: tenant.id, product: product.key })) {
      throw conflict(`tenant already has or had "${product.key}"`);
    }
    const now = new Date();
    const entitlement = tx.create(TenantProductEntity, {
      tenantId: tenant.id,
      product: product.key,
      enabled: true,
      config: { trial: true },
      expiresAt: addDays(now, TRIAL_DAYS),
      createdAt: now,
      updatedAt: now,
    });
    await tx.flush();
    await appendAuditEvent(
      tx,
      {
        action: 'entitlement.trial_started',
        tenant_id: tenant.id,
        product: product.key,
        target_id: tenant.id,
        target_type: 'tenant',
        target_name: tenant.slug,
        metadata: { product: product.key, expires_at: entitlement.expiresAt!.toISOString() },
      },
      meta,
    );
    return { entitlement, claimsPushCommandId: await enqueueActorCommand(tx, tenant.id, 'pushClaims') };
  });
}
