import { describe, expect, it } from 'vitest';
import { reactivateMember } from '../../../domain/members/reactivateMember.ts';
import { MISSING, TENANT, tenantWithMembers as setup } from '../../support/fakes/tenantWithMembers.ts';

const meta = {};

describe('reactivateMember', () => {
  it('makes an inactive member active with member.reactivated and a syncMember hand-off that effects follow', async () => {
    const { registry, seed, members } = setup();
    seed('ada', ['MEMBER'], 'inactive');
    expect(await reactivateMember(registry, TENANT, 'ada', meta)).toMatchObject({ status: 'active', roles: ['MEMBER'] });
    expect(members.events.map((e) => [e.action, e.target_id, e.metadata])).toEqual([['member.reactivated', 'ada', { from: 'inactive', to: 'active' }]]);
    expect(registry.effects.followed).toEqual([{ handOffs: members.handOffs, staleUsers: ['ada'], staleMemberLists: [TENANT] }]);
    expect(members.handOffs).toHaveLength(1);
  });

  it('answers an active or a pending member as it is and writes nothing', async () => {
    const { registry, seed, members } = setup();
    const active = seed('ada', ['MEMBER']);
    const pending = seed('invited', ['IT_ADMIN'], 'pending');
    expect(await reactivateMember(registry, TENANT, 'ada', meta)).toEqual(active);
    expect(await reactivateMember(registry, TENANT, 'invited', meta)).toEqual(pending);
    expect(members.events).toEqual([]);
    expect(registry.effects.followed).toEqual([]);
  });

  it('is 404 for a user that is not a member and for an unknown tenant', async () => {
    const { registry } = setup();
    await expect(reactivateMember(registry, TENANT, 'ghost', meta)).rejects.toMatchObject({ code: 'not_found', message: 'member not found' });
    await expect(reactivateMember(registry, MISSING, 'ghost', meta)).rejects.toMatchObject({ code: 'not_found', message: 'tenant not found' });
  });
});
