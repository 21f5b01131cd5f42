import type { AuditRepository } from '../audit/auditRepository.ts';
import type { RequestMeta } from '../requestMeta.ts';
import type { CatalogRequest } from '../schemas/catalog.ts';
import type { TenantRepository } from '../tenants/tenantRepository.ts';
import { findTenant } from '../tenants/findTenant.ts';
import type { CatalogRepository } from './catalogRepository.ts';
import { findCatalogProduct } from './findCatalogProduct.ts';

/** Records the request for sales to follow up; it grants nothing. */
export async function requestProduct(
  stores: { tenants: TenantRepository; catalog: CatalogRepository; audit: AuditRepository },
  request: CatalogRequest,
  meta: RequestMeta,
): Promise<void> {
  const tenant = await findTenant(stores.tenants, { by: 'id', id: request.tenant_id });
  await findCatalogProduct(stores.catalog, request.product);
  await stores.audit.append(
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
