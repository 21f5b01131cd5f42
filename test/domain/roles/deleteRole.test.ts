import { describe, expect, it } from 'vitest';
import { boundTo } from '../../../domain/access/tenantReach.ts';
import { createRole } from '../../../domain/roles/createRole.ts';
import { deleteRole } from '../../../domain/roles/deleteRole.ts';
import { InMemoryRoleRepository } from '../../support/fakes/inMemoryRoleRepository.ts';
import { inMemoryRegistry } from '../../support/fakes/inMemoryRegistry.ts';

const TENANT = '00000000-0000-4000-8000-000000000001';
const OTHER = '00000000-0000-4000-8000-000000000002';
const meta = {};

async function setup() {
  const roles = new InMemoryRoleRepository();
  roles.addTenant(TENANT);
  roles.addTenant(OTHER);
  const registry = inMemoryRegistry({ roles });
  const role = await createRole(registry, { slug: 'ops', name: 'Ops', permissions: ['audit:read'], tenant_id: TENANT }, meta);
  roles.events.length = 0;
  return { roles, registry, role };
}

describe('deleteRole', () => {
  it('deletes the role and appends role.deleted with what it was', async () => {
    const { roles, registry, role } = await setup();
    await deleteRole(registry, role.id, meta);
    expect(roles.roles.has(role.id)).toBe(false);
    expect(roles.events).toEqual([
      {
        action: 'role.deleted',
        tenant_id: TENANT,
        target_id: role.id,
        target_type: 'role',
        target_name: 'ops',
        metadata: { name: 'Ops', description: '', permissions: ['audit:read'], shared: false },
      },
    ]);
    await expect(deleteRole(registry, role.id, meta)).rejects.toMatchObject({ code: 'not_found' });
  });

  it('keeps the built-in roles: 409, nothing written', async () => {
    const { roles, registry } = await setup();
    for (const slug of ['IT_ADMIN', 'MEMBER']) {
      await expect(deleteRole(registry, roles.roleOfSlug(slug).id, meta)).rejects.toMatchObject({ code: 'conflict', message: expect.stringContaining('built-in') });
    }
    expect(roles.events).toEqual([]);
  });

  it('keeps a role a member holds: 409, nothing written', async () => {
    const { roles, registry, role } = await setup();
    roles.holders.set(role.id, 2);
    await expect(deleteRole(registry, role.id, meta)).rejects.toMatchObject({ code: 'conflict', message: expect.stringContaining('2 member(s) hold') });
    expect(roles.roles.has(role.id)).toBe(true);
    expect(roles.events).toEqual([]);
  });

  it('keeps a role a member record holds: 409; the deletion of a role none holds tells effects every cached member is stale', async () => {
    const { registry, role } = await setup();
    registry.members.seed({ tenantId: TENANT, userId: 'ada', email: 'ada@example.test', name: 'Ada', roles: ['ops'], status: 'inactive', source: 'registry' });
    await expect(deleteRole(registry, role.id, meta)).rejects.toMatchObject({ code: 'conflict', message: expect.stringContaining('1 member(s) hold') });
    expect(registry.effects.followed).toEqual([]);
    registry.members.members.clear();
    await deleteRole(registry, role.id, meta);
    expect(registry.effects.followed).toEqual([{ handOffs: [], staleAllMembers: true }]);
  });

  it("a caller bound to tenants deletes its tenants' roles only: another tenant's is 404, a shared one 403", async () => {
    const { roles, registry, role } = await setup();
    const theirs = await createRole(registry, { slug: 'ops', name: 'Ops', tenant_id: OTHER }, meta);
    const shared = await createRole(registry, { slug: 'auditor', name: 'Auditor' }, meta);
    const reach = boundTo([TENANT]);
    await expect(deleteRole(registry, theirs.id, meta, reach)).rejects.toMatchObject({ code: 'not_found' });
    await expect(deleteRole(registry, shared.id, meta, reach)).rejects.toMatchObject({ code: 'forbidden' });
    await deleteRole(registry, role.id, meta, reach);
    expect([...roles.roles.keys()]).toEqual(expect.arrayContaining([theirs.id, shared.id]));
    expect(roles.roles.has(role.id)).toBe(false);
  });
});
