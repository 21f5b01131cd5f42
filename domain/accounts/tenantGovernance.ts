import type { RegistryStores } from '../registryStores.ts';
import type { Account } from '../members/userDirectory.ts';
import { governsAccount } from './accountGovernance.ts';

/** Whether the tenant governs the provider's account, judged on the registry's memberships and verified domains now. */
export async function tenantGovernsAccount(stores: Pick<RegistryStores, 'members'> & Partial<Pick<RegistryStores, 'domains'>>, tenantId: string, account: Account): Promise<boolean> {
  const [memberships, verifiedDomains] = await Promise.all([stores.members.ofUser(account.userId), stores.domains?.verifiedNames(tenantId) ?? Promise.resolve([])]);
  return governsAccount(
    { tenantId, verifiedDomains },
    { email: account.email, madeByTenantId: account.homeTenantId, memberOfTenantIds: memberships.map((m) => m.tenantId) },
  );
}
