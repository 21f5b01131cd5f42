import type { TenantChangeWritten } from '../tenants/tenantRepository.ts';
import type { CommittedChange } from './changeEffects.ts';

/**
 * What follows a committed change of one tenant: this replica forgets its cached snapshot now (a disabled product's
 * removal changes the snapshot without changing the claims), and, when its claims changed, its actor pushes the new
 * bundle through the hand-off written with the change.
 */
export function tenantChangeEffects(tenantId: string, written: TenantChangeWritten<unknown>): CommittedChange {
  return { staleTenants: [tenantId], handOffs: written.handOffs };
}
