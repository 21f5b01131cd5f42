import { describe, expect, it } from 'vitest';
import { getMember } from '../../../domain/members/getMember.ts';
import { inMemoryRegistry } from '../../support/fakes/inMemoryRegistry.ts';

const TENANT = '00000000-0000-4000-8000-000000000001';
const OTHER = '00000000-0000-4000-8000-000000000002';

describe('getMember', () => {
  it("answers the tenant's member with its roles' permissions; not a member of that tenant is 404", async () => {
    const registry = inMemoryRegistry();
    registry.roles.addTenant(TENANT);
    registry.roles.addTenant(OTHER);
    registry.members.seed({ tenantId: TENANT, userId: 'ada', email: 'ada@example.test', name: 'Ada', roles: ['IT_ADMIN'], status: 'active', source: 'registry' });
    expect(await getMember(registry, TENANT, 'ada')).toMatchObject({ userId: 'ada', roles: ['IT_ADMIN'], permissions: ['audit:read', 'directory:manage', 'members:manage', 'sso:manage'] });
    await expect(getMember(registry, OTHER, 'ada')).rejects.toMatchObject({ code: 'not_found', message: 'member not found' });
  });
});
