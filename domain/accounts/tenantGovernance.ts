import type { RegistryStores } from '../registryStores.ts';
import type { Account } from '../members/userDirectory.ts';
import { governsAccount } from './accountGovernance.ts';

/**
 * Whether the tenant governs the provider's account, judged on the registry's memberships and verified domains now.
 * `madeHere`: the registry recorded that the tenant made the account (a directory's `owned`), which outlasts the
 * provider's home-tenant attribute (a removal's push clears it).
 */
export async function tenantGovernsAccount(
  stores: Pick<RegistryStores, 'members'> & Partial<Pick<RegistryStores, 'domains'>>,
  tenantId: string,
  account: Account,
  madeHere = false,
): Promise<boolean> {
  const [memberships, verifiedDomains] = await Promise.all([stores.members.ofUser(account.userId), stores.domains?.verifiedNames(tenantId) ?? Promise.resolve([])]);
  return governsAccount(
    { tenantId, verifiedDomains },
    { email: account.email, madeByTenantId: madeHere ? tenantId : account.homeTenantId, memberOfTenantIds: memberships.map((m) => m.tenantId) },
  );
}
