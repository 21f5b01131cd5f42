import type { MemberStatus } from '../../../domain/members/memberRecord.ts';
import { inMemoryRegistry } from './inMemoryRegistry.ts';

/** The tenant of the members' service tests, and one that does not exist. */
export const TENANT = '00000000-0000-4000-8000-000000000001';
export const MISSING = '00000000-0000-4000-8000-00000000000f';

/** A registry of fakes with TENANT in it, and `seed` to give it members (source `registry`, e-mail `<id>@example.test`). */
export function tenantWithMembers() {
  const registry = inMemoryRegistry();
  registry.roles.addTenant(TENANT);
  const seed = (userId: string, roles: string[], status: MemberStatus = 'active') =>
    registry.members.seed({ tenantId: TENANT, userId, email: `${userId}@example.test`, name: userId, roles, status, source: 'registry' });
  return { registry, seed, members: registry.members };
}
