import type { MemberRecord, MembershipGrant } from '../members/memberRecord.ts';
import type { MemberRepository } from '../members/memberRepository.ts';
import type { RegistryCache } from '../reads/registryCache.ts';
import { readOrStale } from '../reads/readOrStale.ts';

export const grantOf = (member: MemberRecord): MembershipGrant => ({
  tenantId: member.tenantId,
  status: member.status,
  roles: member.roles,
  permissions: member.permissions,
  breakGlass: member.breakGlass ?? false,
});

/**
 * The user's grants in every tenant, from the registry cache when it holds them (see domain/reads/registryCache.ts for how
 * soon a change is seen), else from one read, which then fills the cache. A user that is nobody's member has none.
 */
export async function membershipGrantsOf(members: Pick<MemberRepository, 'ofUser'>, userId: string, cache?: RegistryCache): Promise<MembershipGrant[]> {
  const cached = cache?.grants.get(userId);
  if (cached) return cached;
  const generation = cache?.generation() ?? 0;
  const read = await readOrStale(async () => (await members.ofUser(userId)).map(grantOf), () => cache?.grants.stale(userId));
  if (!read.stale) cache?.grants.put(userId, read.value, generation);
  return read.value;
}
