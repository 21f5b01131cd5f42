import type { AppContext } from '../appDependencies.ts';
import { handOffInBackground } from './handOff.ts';

/**
 * After a committed change of a tenant's status, plan or products: this replica's verify and claims see it at once
 * (other replicas through NOTIFY), and the tenant's actor pushes the new bundle to its users (the outbox entry written
 * with the change covers a failed hand-off).
 */
export function afterClaimsChanged(context: AppContext, tenantId: string, claimsPushCommandId: number | undefined): void {
  context.cache.invalidateTenant(tenantId);
  if (claimsPushCommandId !== undefined) handOffInBackground(context, tenantId, 'pushClaims', claimsPushCommandId);
}
