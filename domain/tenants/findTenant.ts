import type { EntityManager } from '@mikro-orm/postgresql';
import { TenantEntity, type TenantRecord } from '../entities/tenantEntity.ts';
import { notFound } from '../errors.ts';
import type { TenantLookup } from '../claimsLookup.ts';

export async function findTenant(em: EntityManager, lookup: TenantLookup): Promise<TenantRecord> {
  const tenant = await em.findOne(TenantEntity, lookup.by === 'id' ? { id: lookup.id } : { slug: lookup.slug });
  if (!tenant) throw notFound('tenant');
  return tenant;
}

export const findTenantById = (em: EntityManager, id: string) => findTenant(em, { by: 'id', id });
