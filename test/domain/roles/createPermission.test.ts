import { describe, expect, it } from 'vitest';
import { createPermission } from '../../../domain/roles/createPermission.ts';
import { InMemoryRoleRepository } from '../../support/fakes/inMemoryRoleRepository.ts';
import { inMemoryRegistry } from '../../support/fakes/inMemoryRegistry.ts';

describe('createPermission', () => {
  it('defines the permission with permission.created, and refuses a slug that exists (409), built-in ones included', async () => {
    const roles = new InMemoryRoleRepository();
    const registry = inMemoryRegistry({ roles });
    const created = await createPermission(registry, { slug: 'reports:export', description: 'export reports' }, {});
    expect(created).toMatchObject({ slug: 'reports:export', description: 'export reports', builtIn: false });
    await expect(createPermission(registry, { slug: 'reports:export' }, {})).rejects.toMatchObject({ code: 'conflict' });
    await expect(createPermission(registry, { slug: 'audit:read' }, {})).rejects.toMatchObject({ code: 'conflict' });
    expect(roles.events).toEqual([
      { action: 'permission.created', target_id: 'reports:export', target_type: 'permission', target_name: 'reports:export', metadata: { description: 'export reports' } },
    ]);
  });
});
