import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestMeta } from '../requestMeta.ts';
import type { CatalogRequest } from '../schemas/catalog.ts';
import { appendAuditEvent } from '../audit/appendAuditEvent.ts';
import { findTenantById } from '../tenants/findTenant.ts';
import { findCatalogProduct } from './listCatalog.ts';

/** Records the request for sales to follow up; it grants nothing. */
export async function requestProduct(em: EntityManager, request: CatalogRequest, meta: RequestMeta): Promise<void> {
  const tenant = await findTenantById(em, request.tenant_id);
  await findCatalogProduct(em, request.product);
  await appendAuditEvent(
    em,
    {
      action: 'catalog.product_requested',
      tenant_id: tenant.id,
      product: request.product,
      target_id: tenant.id,
      target_type: 'tenant',
      target_name: tenant.slug,
      metadata: { product: request.product },
    },
    meta,
  );
}
