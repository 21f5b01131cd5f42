import type { EntityManager } from '@mikro-orm/postgresql';
import { TenantProductEntity } from '../entities/tenantProductEntity.ts';
import type { TenantRecord } from '../entities/tenantEntity.ts';
import { orgRolesFrom, tenantLookupFor } from '../claimsLookup.ts';
import type { Claims, ClaimsRequest } from '../schemas/claims.ts';
import { isEntitlementCurrent } from '../entitlements/listEntitlements.ts';
import { findTenant } from '../tenants/findTenant.ts';

/** The claim bundle of a tenant as of now; the same shape is pushed into users' attributes in the identity provider. */
export async function claimsOfTenant(em: EntityManager, tenant: TenantRecord, orgRoles: string[]): Promise<Claims> {
  const now = new Date();
  const entitlements = await em.find(TenantProductEntity, { tenantId: tenant.id }, { orderBy: { product: 'asc' } });
  return {
    tenant_id: tenant.id,
    tenant_slug: tenant.slug,
    org_roles: orgRoles,
    products: entitlements.filter((e) => isEntitlementCurrent(e, now)).map((e) => e.product),
    plan: tenant.plan,
    tenant_status: tenant.status,
  };
}

export async function resolveClaims(em: EntityManager, request: ClaimsRequest): Promise<Claims> {
  const tenant = await findTenant(em, tenantLookupFor(request));
  return claimsOfTenant(em, tenant, orgRolesFrom(request));
}
