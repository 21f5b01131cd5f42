import { describe, expect, it } from 'vitest';
import { deactivateMember } from '../../../domain/members/deactivateMember.ts';
import { MISSING, TENANT, tenantWithMembers as setup } from '../../support/fakes/tenantWithMembers.ts';

const meta = {};

describe('deactivateMember', () => {
  it('makes an active member inactive, its roles kept, with member.deactivated and a syncMember hand-off that effects follow', async () => {
    const { registry, seed, members } = setup();
    seed('boss', ['IT_ADMIN']);
    seed('ada', ['MEMBER']);
    const member = await deactivateMember(registry, TENANT, 'ada', meta);
    expect(member).toMatchObject({ userId: 'ada', status: 'inactive', roles: ['MEMBER'] });
    expect((await members.find(TENANT, 'ada'))?.status).toBe('inactive');
    expect(members.events).toEqual([
      { action: 'member.deactivated', tenant_id: TENANT, target_id: 'ada', target_type: 'member', target_name: 'ada@example.test', metadata: { from: 'active', to: 'inactive' } },
    ]);
    expect(registry.effects.followed).toEqual([{ handOffs: [{ id: 1, tenantId: TENANT, command: { kind: 'syncMember', user_id: 'ada' } }], staleUsers: ['ada'], staleMemberLists: [TENANT] }]);
  });

  it('answers an inactive member as it is and writes nothing', async () => {
    const { registry, seed, members } = setup();
    const ada = seed('ada', ['MEMBER'], 'inactive');
    expect(await deactivateMember(registry, TENANT, 'ada', meta)).toEqual(ada);
    expect(members.events).toEqual([]);
    expect(registry.effects.followed).toEqual([]);
  });

  it('deactivates a pending member', async () => {
    const { registry, seed } = setup();
    seed('invited', ['IT_ADMIN'], 'pending');
    expect((await deactivateMember(registry, TENANT, 'invited', meta)).status).toBe('inactive');
  });

  it("refuses the tenant's last active IT_ADMIN (409), even as its only member; not when another active one stays", async () => {
    const { registry, seed, members } = setup();
    seed('boss', ['IT_ADMIN']);
    await expect(deactivateMember(registry, TENANT, 'boss', meta)).rejects.toMatchObject({ code: 'conflict', message: expect.stringContaining('cannot be deactivated') });
    seed('invited', ['IT_ADMIN'], 'pending');
    await expect(deactivateMember(registry, TENANT, 'boss', meta)).rejects.toMatchObject({ code: 'conflict' });
    expect(members.events).toEqual([]);
    seed('second', ['IT_ADMIN']);
    expect((await deactivateMember(registry, TENANT, 'boss', meta)).status).toBe('inactive');
    await expect(deactivateMember(registry, TENANT, 'second', meta)).rejects.toMatchObject({ code: 'conflict' });
  });

  it('is 404 for a user that is not a member and for an unknown tenant', async () => {
    const { registry } = setup();
    await expect(deactivateMember(registry, TENANT, 'ghost', meta)).rejects.toMatchObject({ code: 'not_found', message: 'member not found' });
    await expect(deactivateMember(registry, MISSING, 'ghost', meta)).rejects.toMatchObject({ code: 'not_found', message: 'tenant not found' });
  });
});
