import { describe, expect, it } from 'vitest';
import { boundTo } from '../../../domain/access/tenantReach.ts';
import { createRole } from '../../../domain/roles/createRole.ts';
import { updateRole } from '../../../domain/roles/updateRole.ts';
import { InMemoryRoleRepository } from '../../support/fakes/inMemoryRoleRepository.ts';
import { inMemoryRegistry } from '../../support/fakes/inMemoryRegistry.ts';

const TENANT = '00000000-0000-4000-8000-000000000001';
const OTHER = '00000000-0000-4000-8000-000000000002';
const MISSING = '00000000-0000-4000-8000-00000000000f';
const meta = {};

async function setup() {
  const roles = new InMemoryRoleRepository();
  roles.addTenant(TENANT);
  roles.addTenant(OTHER);
  const registry = inMemoryRegistry({ roles });
  const role = await createRole(registry, { slug: 'ops', name: 'Ops', description: 'runs things', permissions: ['audit:read'], tenant_id: TENANT }, meta);
  roles.events.length = 0;
  return { roles, registry, role };
}

describe('updateRole', () => {
  it('replaces the given fields and the whole permission set; role.updated carries old and new of what changed only', async () => {
    const { roles, registry, role } = await setup();
    const updated = await updateRole(registry, role.id, { name: 'Operations', description: 'runs things', permissions: ['sso:manage', 'members:manage'] }, meta);
    expect(updated).toMatchObject({ id: role.id, slug: 'ops', name: 'Operations', description: 'runs things', permissions: ['members:manage', 'sso:manage'] });
    expect(updated.updatedAt.getTime()).toBeGreaterThanOrEqual(role.updatedAt.getTime());
    expect(roles.roles.get(role.id)).toMatchObject({ name: 'Operations', permissions: ['members:manage', 'sso:manage'] });
    expect(roles.events).toEqual([
      {
        action: 'role.updated',
        tenant_id: TENANT,
        target_id: role.id,
        target_type: 'role',
        target_name: 'ops',
        metadata: { changes: { name: { old: 'Ops', new: 'Operations' }, permissions: { old: ['audit:read'], new: ['members:manage', 'sso:manage'] } } },
      },
    ]);
  });

  it('a PATCH that changes nothing (the same permissions in another order included) writes nothing', async () => {
    const { roles, registry, role } = await setup();
    await updateRole(registry, role.id, { permissions: ['audit:read', 'audit:read'], name: 'Ops' }, meta);
    await updateRole(registry, role.id, {}, meta);
    expect(roles.events).toEqual([]);
  });

  it("changes a built-in role's permissions, and can take them all away", async () => {
    const { roles, registry } = await setup();
    const admin = roles.roleOfSlug('IT_ADMIN');
    const updated = await updateRole(registry, admin.id, { permissions: [] }, meta);
    expect(updated).toMatchObject({ slug: 'IT_ADMIN', builtIn: true, permissions: [] });
    expect(roles.events[0]?.metadata).toEqual({ changes: { permissions: { old: ['audit:read', 'directory:manage', 'members:manage', 'sso:manage'], new: [] } } });
  });

  it('refuses a permission that does not exist (400) and answers 404 for no such role, writing nothing', async () => {
    const { roles, registry, role } = await setup();
    await expect(updateRole(registry, role.id, { name: 'Renamed', permissions: ['nope:never'] }, meta)).rejects.toMatchObject({ code: 'invalid_input' });
    await expect(updateRole(registry, MISSING, { name: 'Renamed' }, meta)).rejects.toMatchObject({ code: 'not_found' });
    expect(roles.roles.get(role.id)?.name).toBe('Ops');
    expect(roles.events).toEqual([]);
  });

  it("a change of a role's permissions queues a claims push to each tenant where a member holds it, with every cached member stale; a rename pushes nothing", async () => {
    const { roles, registry } = await setup();
    const shared = await createRole(registry, { slug: 'auditor', name: 'Auditor', permissions: ['audit:read'] }, meta);
    const member = (tenantId: string, userId: string, held: string[]) =>
      registry.members.seed({ tenantId, userId, email: `${userId}@example.test`, name: userId, roles: held, status: 'active', source: 'registry' });
    member(TENANT, 'ada', ['auditor', 'MEMBER']);
    member(TENANT, 'bob', ['auditor']);
    member(OTHER, 'cy', ['auditor']);
    member(OTHER, 'dee', ['MEMBER']);
    await updateRole(registry, shared.id, { name: 'Auditors' }, meta);
    expect(registry.effects.followed).toEqual([{ handOffs: [], staleAllMembers: true }]);
    await updateRole(registry, shared.id, { permissions: ['audit:read', 'sso:manage'] }, meta);
    expect(registry.effects.followed[1]).toMatchObject({ staleAllMembers: true });
    expect(registry.effects.followed[1]!.handOffs!.map((h) => [h.tenantId, h.command.kind]).sort()).toEqual([[TENANT, 'pushClaims'], [OTHER, 'pushClaims']]);
    expect((await registry.members.find(TENANT, 'bob'))?.permissions).toEqual(['audit:read', 'sso:manage']);
    await updateRole(registry, shared.id, { permissions: ['sso:manage', 'audit:read'] }, meta);
    expect(registry.effects.followed).toHaveLength(2);
    expect(roles.events.map((e) => e.action)).toEqual(['role.created', 'role.updated', 'role.updated']);
  });

  it("a caller bound to tenants changes its tenants' roles only: another tenant's is 404, a shared one 403", async () => {
    const { roles, registry, role } = await setup();
    const theirs = await createRole(registry, { slug: 'ops', name: 'Ops', tenant_id: OTHER }, meta);
    roles.events.length = 0;
    const reach = boundTo([TENANT]);
    expect((await updateRole(registry, role.id, { name: 'Mine' }, meta, reach)).name).toBe('Mine');
    await expect(updateRole(registry, theirs.id, { name: 'Taken' }, meta, reach)).rejects.toMatchObject({ code: 'not_found', message: 'role not found' });
    await expect(updateRole(registry, roles.roleOfSlug('MEMBER').id, { name: 'Taken' }, meta, reach)).rejects.toMatchObject({ code: 'forbidden' });
    expect(roles.events).toHaveLength(1);
  });
});
