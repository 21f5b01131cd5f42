import { requireSharedAuthority } from '../access/sharedAuthority.ts';
import { requireReach, requireUnbound, type TenantReach } from '../access/tenantReach.ts';

/**
 * Who may create or change a role: a tenant's role, a caller that reaches its tenant (another tenant's is answered
 * as `missing` not found); a shared role, which every tenant has, only a caller bound to no tenant and holding the
 * shared authority (registry:admin), 403 otherwise.
 */
export function requireRoleReach(reach: TenantReach, tenantId: string | null, missing: 'tenant' | 'role', operation: string, sharedAuthority: boolean): void {
  if (tenantId === null) {
    requireUnbound(reach, operation);
    requireSharedAuthority(sharedAuthority, operation);
  } else requireReach(reach, tenantId, missing);
}
