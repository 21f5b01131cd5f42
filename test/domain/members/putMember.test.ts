import { describe, expect, it } from 'vitest';
import { createRole } from '../../../domain/roles/createRole.ts';
import { putMember } from '../../../domain/members/putMember.ts';
import { FakeUserDirectory } from '../../support/fakes/fakeUserDirectory.ts';
import { inMemoryRegistry } from '../../support/fakes/inMemoryRegistry.ts';

const TENANT = '00000000-0000-4000-8000-000000000001';
const OTHER = '00000000-0000-4000-8000-000000000002';
const MISSING = '00000000-0000-4000-8000-00000000000f';
const IT_ADMIN_PERMISSIONS = ['audit:read', 'directory:manage', 'members:manage', 'sso:manage'];
const meta = {};

function setup() {
  const users = new FakeUserDirectory();
  const registry = Object.assign(inMemoryRegistry(), { users });
  registry.roles.addTenant(TENANT);
  registry.roles.addTenant(OTHER);
  const seed = (userId: string, roles: string[], status: 'active' | 'inactive' | 'pending' = 'active') =>
    registry.members.seed({ tenantId: TENANT, userId, email: `${userId}@example.test`, name: userId, roles, status, source: 'registry' });
  return { registry, users, seed, members: registry.members };
}

describe('putMember', () => {
  it("makes the directory's user a member: its e-mail and name, active, source registry, roles once and sorted, their permissions; member.added and a syncMember hand-off that effects follow", async () => {
    const { registry, users, members } = setup();
    users.add('ada', 'ada@example.test', 'Ada Lovelace');
    const { member, created } = await putMember(registry, TENANT, 'ada', { roles: ['MEMBER', 'IT_ADMIN', 'MEMBER'] }, meta);
    expect(created).toBe(true);
    expect(member).toMatchObject({ tenantId: TENANT, userId: 'ada', email: 'ada@example.test', name: 'Ada Lovelace', roles: ['IT_ADMIN', 'MEMBER'], permissions: IT_ADMIN_PERMISSIONS, status: 'active', source: 'registry' });
    expect(await members.find(TENANT, 'ada')).toEqual(member);
    expect(members.events).toEqual([
      { action: 'member.added', tenant_id: TENANT, target_id: 'ada', target_type: 'member', target_name: 'ada@example.test', metadata: { roles: ['IT_ADMIN', 'MEMBER'], source: 'registry' } },
    ]);
    expect(members.handOffs.map((h) => h.command)).toEqual([{ kind: 'syncMember', user_id: 'ada' }]);
    expect(registry.effects.followed).toEqual([{ handOffs: members.handOffs, staleUsers: ['ada'], staleMemberLists: [TENANT] }]);
  });

  it("replaces a member's roles with member.roles_changed (old and new), asking the directory nothing; the same roles write and follow nothing", async () => {
    const { registry, users, seed, members } = setup();
    seed('boss', ['IT_ADMIN']);
    seed('ada', ['MEMBER']);
    const { member, created } = await putMember(registry, TENANT, 'ada', { roles: ['IT_ADMIN'] }, meta);
    expect({ created, roles: member.roles, permissions: member.permissions }).toEqual({ created: false, roles: ['IT_ADMIN'], permissions: IT_ADMIN_PERMISSIONS });
    expect(members.events.map((e) => [e.action, e.metadata])).toEqual([['member.roles_changed', { old: ['MEMBER'], new: ['IT_ADMIN'] }]]);
    expect(users.lookups).toBe(0);
    expect(await putMember(registry, TENANT, 'ada', { roles: ['IT_ADMIN', 'IT_ADMIN'] }, meta)).toEqual({ member, created: false });
    expect(members.events).toHaveLength(1);
    expect(members.handOffs).toHaveLength(1);
    expect(registry.effects.followed).toHaveLength(1);
  });

  it("takes shared roles and the tenant's own; another tenant's role or an unknown slug is 400 naming each, nothing written", async () => {
    const { registry, users, seed, members } = setup();
    const own = await createRole(registry, { slug: 'ops', name: 'Ops', permissions: ['audit:read'], tenant_id: TENANT }, meta);
    const theirs = await createRole(registry, { slug: 'billing', name: 'Billing', tenant_id: OTHER }, meta);
    users.add('ada');
    expect((await putMember(registry, TENANT, 'ada', { roles: [own.slug] }, meta)).member).toMatchObject({ roles: ['ops'], permissions: ['audit:read'] });
    seed('bob', ['MEMBER']);
    await expect(putMember(registry, TENANT, 'bob', { roles: ['MEMBER', theirs.slug, 'nope'] }, meta)).rejects.toMatchObject({
      code: 'invalid_input',
      message: 'unknown roles for this tenant: billing, nope',
    });
    await expect(putMember(registry, TENANT, 'bob', { roles: [] }, meta)).rejects.toMatchObject({ code: 'invalid_input', message: 'roles: a member holds at least one role' });
    expect((await members.find(TENANT, 'bob'))?.roles).toEqual(['MEMBER']);
    expect(members.events.map((e) => e.action)).toEqual(['member.added']);
  });

  it('refuses unknown roles before asking the directory for a new member', async () => {
    const { registry, users } = setup();
    users.add('ada');
    await expect(putMember(registry, TENANT, 'ada', { roles: ['nope'] }, meta)).rejects.toMatchObject({ code: 'invalid_input' });
    expect(users.lookups).toBe(0);
  });

  it('is 404 for a user the directory does not have, 503 when it cannot answer or there is none, 404 for an unknown tenant before asking it', async () => {
    const { registry, users, members } = setup();
    await expect(putMember(registry, TENANT, 'ghost', { roles: ['MEMBER'] }, meta)).rejects.toMatchObject({ code: 'not_found', message: 'user not found' });
    users.add('ada');
    users.failing = true;
    await expect(putMember(registry, TENANT, 'ada', { roles: ['MEMBER'] }, meta)).rejects.toMatchObject({ code: 'unavailable', message: 'identity provider: unavailable' });
    await expect(putMember({ ...registry, users: undefined }, TENANT, 'ada', { roles: ['MEMBER'] }, meta)).rejects.toMatchObject({ code: 'unavailable' });
    const asked = users.lookups;
    await expect(putMember(registry, MISSING, 'ada', { roles: ['MEMBER'] }, meta)).rejects.toMatchObject({ code: 'not_found', message: 'tenant not found' });
    expect(users.lookups).toBe(asked);
    expect(members.events).toEqual([]);
    expect(members.handOffs).toEqual([]);
  });

  it("refuses to demote the tenant's last active IT_ADMIN (409, nothing written); a second active one, or a pending only one, lets it pass", async () => {
    const { registry, seed, members } = setup();
    seed('boss', ['IT_ADMIN']);
    seed('ada', ['MEMBER']);
    await expect(putMember(registry, TENANT, 'boss', { roles: ['MEMBER'] }, meta)).rejects.toMatchObject({ code: 'conflict', message: expect.stringContaining('cannot lose the role IT_ADMIN') });
    expect(members.events).toEqual([]);
    seed('second', ['IT_ADMIN', 'MEMBER']);
    expect((await putMember(registry, TENANT, 'boss', { roles: ['MEMBER'] }, meta)).member.roles).toEqual(['MEMBER']);
    seed('invited', ['IT_ADMIN'], 'pending');
    seed('second', ['MEMBER']);
    expect((await putMember(registry, TENANT, 'invited', { roles: ['MEMBER'] }, meta)).member.roles).toEqual(['MEMBER']);
  });
});
