import { describe, expect, it } from 'vitest';
import { requireDefaultRoleFit, requireDefaultStaysUnprivileged } from '../../../domain/roles/defaultRoleRule.ts';

const TENANT = '00000000-0000-4000-8000-000000000001';

describe('requireDefaultRoleFit', () => {
  it('refuses a role holding members:manage as a default role (400), and takes any other', () => {
    expect(() => requireDefaultRoleFit({ slug: 'IT_ADMIN', permissions: ['audit:read', 'members:manage'] })).toThrow(expect.objectContaining({ code: 'invalid_input' }));
    expect(() => requireDefaultRoleFit({ slug: 'Helpdesk', permissions: ['audit:read', 'sso:manage'] })).not.toThrow();
  });
});

describe('requireDefaultStaysUnprivileged', () => {
  const role = (slug: string, tenantId: string | null, defaultOfTenants: number, permissions: string[] = []) => ({ slug, tenantId, defaultOfTenants, permissions });

  it("refuses members:manage to some tenant's default role, and to the shared MEMBER always (409)", () => {
    for (const r of [role('Arrivals', TENANT, 1), role('Everyone', null, 3), role('MEMBER', null, 0)]) {
      expect(() => requireDefaultStaysUnprivileged(r, ['members:manage']), r.slug).toThrow(expect.objectContaining({ code: 'conflict' }));
    }
  });

  it('lets a role that is no default gain it, a default role change otherwise, and one that already held it keep it', () => {
    expect(() => requireDefaultStaysUnprivileged(role('Deputy', TENANT, 0), ['members:manage'])).not.toThrow();
    expect(() => requireDefaultStaysUnprivileged(role('MEMBER', TENANT, 0), ['members:manage'])).not.toThrow();
    expect(() => requireDefaultStaysUnprivileged(role('Arrivals', TENANT, 1), ['audit:read'])).not.toThrow();
    expect(() => requireDefaultStaysUnprivileged(role('Legacy', TENANT, 1, ['members:manage']), ['members:manage', 'sso:manage'])).not.toThrow();
  });
});
