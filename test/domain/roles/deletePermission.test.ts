import { describe, expect, it } from 'vitest';
import { createPermission } from '../../../domain/roles/createPermission.ts';
import { createRole } from '../../../domain/roles/createRole.ts';
import { deletePermission } from '../../../domain/roles/deletePermission.ts';
import { updateRole } from '../../../domain/roles/updateRole.ts';
import { InMemoryRoleRepository } from '../../support/fakes/inMemoryRoleRepository.ts';
import { inMemoryRegistry } from '../../support/fakes/inMemoryRegistry.ts';

const meta = {};

function setup() {
  const roles = new InMemoryRoleRepository();
  return { roles, registry: inMemoryRegistry({ roles }) };
}

describe('deletePermission', () => {
  it('deletes a permission no role grants, with permission.deleted; then it is 404', async () => {
    const { roles, registry } = setup();
    await createPermission(registry, { slug: 'reports:export', description: 'export reports' }, meta);
    await deletePermission(registry, 'reports:export', meta);
    expect(roles.permissions.has('reports:export')).toBe(false);
    expect(roles.events.at(-1)).toEqual({
      action: 'permission.deleted',
      target_id: 'reports:export',
      target_type: 'permission',
      target_name: 'reports:export',
      metadata: { description: 'export reports' },
    });
    await expect(deletePermission(registry, 'reports:export', meta)).rejects.toMatchObject({ code: 'not_found' });
  });

  it('keeps a permission while a role grants it (409), and deletes it once no role does', async () => {
    const { roles, registry } = setup();
    await createPermission(registry, { slug: 'reports:export' }, meta);
    const role = await createRole(registry, { slug: 'reporter', name: 'Reporter', permissions: ['reports:export'] }, meta);
    await expect(deletePermission(registry, 'reports:export', meta)).rejects.toMatchObject({ code: 'conflict', message: expect.stringContaining('1 role(s) grant') });
    expect(roles.permissions.has('reports:export')).toBe(true);
    await updateRole(registry, role.id, { permissions: [] }, meta);
    await deletePermission(registry, 'reports:export', meta);
    expect(roles.permissions.has('reports:export')).toBe(false);
  });

  it('keeps the built-in permissions even when no role grants them: 409', async () => {
    const { roles, registry } = setup();
    await updateRole(registry, roles.roleOfSlug('IT_ADMIN').id, { permissions: [] }, meta);
    for (const slug of ['members:manage', 'sso:manage', 'directory:manage', 'audit:read']) {
      await expect(deletePermission(registry, slug, meta)).rejects.toMatchObject({ code: 'conflict', message: expect.stringContaining('built-in') });
    }
    expect(roles.permissions.size).toBe(4);
  });
});
