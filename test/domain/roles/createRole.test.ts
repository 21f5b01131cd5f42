import { describe, expect, it } from 'vitest';
import { boundTo } from '../../../domain/access/tenantReach.ts';
import { createRole, slugConflict } from '../../../domain/roles/createRole.ts';
import { InMemoryRoleRepository } from '../../support/fakes/inMemoryRoleRepository.ts';
import { inMemoryRegistry } from '../../support/fakes/inMemoryRegistry.ts';

const TENANT = '00000000-0000-4000-8000-000000000001';
const OTHER = '00000000-0000-4000-8000-000000000002';
const meta = {};

function setup() {
  const roles = new InMemoryRoleRepository();
  roles.addTenant(TENANT);
  roles.addTenant(OTHER);
  return { roles, registry: inMemoryRegistry({ roles }) };
}

describe('slugConflict', () => {
  it("a shared slug clashes with everything; a new shared role with any tenant's; a tenant role only within its tenant", () => {
    expect(slugConflict('X', TENANT, [null])).toMatch(/shared by every tenant/);
    expect(slugConflict('X', null, [null])).toMatch(/shared by every tenant/);
    expect(slugConflict('X', null, [OTHER])).toMatch(/a tenant has a role X/);
    expect(slugConflict('X', TENANT, [TENANT])).toMatch(/the tenant has a role X/);
    expect(slugConflict('X', TENANT, [OTHER])).toBeUndefined();
    expect(slugConflict('X', null, [])).toBeUndefined();
  });
});

describe('createRole', () => {
  it('creates a tenant role with its permissions each once and sorted, and appends role.created with it', async () => {
    const { roles, registry } = setup();
    const role = await createRole(registry, { slug: 'billing', name: 'Billing', permissions: ['sso:manage', 'audit:read', 'sso:manage'], tenant_id: TENANT }, meta);
    expect(role).toMatchObject({ slug: 'billing', name: 'Billing', description: '', permissions: ['audit:read', 'sso:manage'], tenantId: TENANT, builtIn: false });
    expect(roles.roles.get(role.id)).toEqual(role);
    expect(roles.events).toEqual([
      {
        action: 'role.created',
        tenant_id: TENANT,
        target_id: role.id,
        target_type: 'role',
        target_name: 'billing',
        metadata: { name: 'Billing', description: '', permissions: ['audit:read', 'sso:manage'], shared: false },
      },
    ]);
  });

  it('creates a shared role (no tenant, or tenant_id null): its event names no tenant', async () => {
    const { roles, registry } = setup();
    expect((await createRole(registry, { slug: 'auditor', name: 'Auditor' }, meta)).tenantId).toBeNull();
    expect((await createRole(registry, { slug: 'viewer', name: 'Viewer', tenant_id: null }, meta)).tenantId).toBeNull();
    expect(roles.events.map((e) => e.tenant_id)).toEqual([undefined, undefined]);
  });

  it('lets two tenants have a role of one slug, and refuses a second in one tenant: 409', async () => {
    const { registry } = setup();
    await createRole(registry, { slug: 'ops', name: 'Ops', tenant_id: TENANT }, meta);
    await createRole(registry, { slug: 'ops', name: 'Ops', tenant_id: OTHER }, meta);
    await expect(createRole(registry, { slug: 'ops', name: 'Ops again', tenant_id: TENANT }, meta)).rejects.toMatchObject({ code: 'conflict' });
  });

  it("refuses a tenant role of a shared role's slug, a shared role of a slug a tenant uses, and a second shared one: 409, nothing written", async () => {
    const { roles, registry } = setup();
    await expect(createRole(registry, { slug: 'IT_ADMIN', name: 'Mine', tenant_id: TENANT }, meta)).rejects.toMatchObject({ code: 'conflict' });
    await createRole(registry, { slug: 'finance', name: 'Finance', tenant_id: TENANT }, meta);
    await expect(createRole(registry, { slug: 'finance', name: 'Finance for all' }, meta)).rejects.toMatchObject({
      code: 'conflict',
      message: expect.stringContaining('a tenant has a role finance'),
    });
    await expect(createRole(registry, { slug: 'MEMBER', name: 'Member again' }, meta)).rejects.toMatchObject({ code: 'conflict' });
    expect(roles.events.map((e) => e.action)).toEqual(['role.created']);
    expect(roles.roles.size).toBe(3);
  });

  it('refuses a permission that does not exist (400) and a tenant that does not exist (404), writing nothing', async () => {
    const { roles, registry } = setup();
    await expect(createRole(registry, { slug: 'x', name: 'X', permissions: ['audit:read', 'reports:export'], tenant_id: TENANT }, meta)).rejects.toMatchObject({
      code: 'invalid_input',
      message: 'unknown permission: reports:export',
    });
    await expect(createRole(registry, { slug: 'x', name: 'X', tenant_id: '00000000-0000-4000-8000-00000000000f' }, meta)).rejects.toMatchObject({ code: 'not_found' });
    expect(roles.events).toEqual([]);
    expect(roles.roles.size).toBe(2);
  });

  it("a caller bound to tenants creates its tenants' roles only: another tenant is 404, a shared role 403", async () => {
    const { roles, registry } = setup();
    const reach = boundTo([TENANT]);
    expect((await createRole(registry, { slug: 'mine', name: 'Mine', tenant_id: TENANT }, meta, reach)).tenantId).toBe(TENANT);
    await expect(createRole(registry, { slug: 'theirs', name: 'Theirs', tenant_id: OTHER }, meta, reach)).rejects.toMatchObject({ code: 'not_found' });
    await expect(createRole(registry, { slug: 'everyone', name: 'Everyone' }, meta, reach)).rejects.toMatchObject({ code: 'forbidden' });
    expect(roles.events).toHaveLength(1);
  });
});
