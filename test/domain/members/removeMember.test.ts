import { describe, expect, it } from 'vitest';
import { removeMember } from '../../../domain/members/removeMember.ts';
import { MISSING, TENANT, tenantWithMembers as setup } from '../../support/fakes/tenantWithMembers.ts';

const meta = {};

describe('removeMember', () => {
  it('removes the member with member.removed (what it had) and a syncMember hand-off that effects follow', async () => {
    const { registry, seed, members } = setup();
    seed('boss', ['IT_ADMIN']);
    seed('ada', ['MEMBER'], 'inactive');
    await removeMember(registry, TENANT, 'ada', meta);
    expect(await members.find(TENANT, 'ada')).toBeUndefined();
    expect(members.events).toEqual([
      {
        action: 'member.removed',
        tenant_id: TENANT,
        target_id: 'ada',
        target_type: 'member',
        target_name: 'ada@example.test',
        metadata: { roles: ['MEMBER'], status: 'inactive', source: 'registry' },
      },
    ]);
    expect(registry.effects.followed).toEqual([{ handOffs: [{ id: 1, tenantId: TENANT, command: { kind: 'syncMember', user_id: 'ada' } }], staleUsers: ['ada'], staleMemberLists: [TENANT] }]);
  });

  it("refuses the last active IT_ADMIN of a tenant with other members (409, nothing written); removes it as the tenant's only member", async () => {
    const { registry, seed, members } = setup();
    seed('boss', ['IT_ADMIN']);
    seed('invited', ['IT_ADMIN'], 'pending');
    await expect(removeMember(registry, TENANT, 'boss', meta)).rejects.toMatchObject({ code: 'conflict', message: expect.stringContaining('cannot be removed') });
    expect(members.events).toEqual([]);
    await removeMember(registry, TENANT, 'invited', meta);
    await removeMember(registry, TENANT, 'boss', meta);
    expect(await members.allOfTenant(TENANT)).toEqual([]);
  });

  it('is 404 for a user that is not a member and for an unknown tenant, writing nothing', async () => {
    const { registry, members } = setup();
    await expect(removeMember(registry, TENANT, 'ghost', meta)).rejects.toMatchObject({ code: 'not_found', message: 'member not found' });
    await expect(removeMember(registry, MISSING, 'ghost', meta)).rejects.toMatchObject({ code: 'not_found', message: 'tenant not found' });
    expect(members.handOffs).toEqual([]);
    expect(registry.effects.followed).toEqual([]);
  });
});
