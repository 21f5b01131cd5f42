import { notFound } from '../errors.ts';
import type { RoleRecord } from './roleRecord.ts';
import type { RoleRepository } from './roleRepository.ts';

/** Every shared role and, with `tenantId`, that tenant's own; an unknown tenant is 404. */
export async function listRoles(roles: RoleRepository, tenantId: string | undefined): Promise<RoleRecord[]> {
  const found = await roles.listRoles(tenantId);
  if (!found) throw notFound('tenant');
  return found;
}
