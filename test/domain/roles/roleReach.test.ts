import { describe, expect, it } from 'vitest';
import { boundTo, EVERY_TENANT } from '../../../domain/access/tenantReach.ts';
import { requireRoleReach } from '../../../domain/roles/roleReach.ts';

const TENANT = '00000000-0000-4000-8000-000000000001';

describe('requireRoleReach', () => {
  it('lets a shared role change only for an unbound caller with the shared authority (registry:admin)', () => {
    expect(() => requireRoleReach(EVERY_TENANT, null, 'role', 'change a shared role', true)).not.toThrow();
    expect(() => requireRoleReach(EVERY_TENANT, null, 'role', 'change a shared role', false)).toThrow(expect.objectContaining({ code: 'forbidden', message: expect.stringContaining('registry:admin') }));
    expect(() => requireRoleReach(boundTo([TENANT]), null, 'role', 'change a shared role', true)).toThrow(expect.objectContaining({ code: 'forbidden' }));
  });

  it("lets a tenant's own role change without the shared authority, for a caller that reaches the tenant", () => {
    expect(() => requireRoleReach(EVERY_TENANT, TENANT, 'role', 'change a shared role', false)).not.toThrow();
    expect(() => requireRoleReach(boundTo([TENANT]), TENANT, 'role', 'change a shared role', false)).not.toThrow();
    expect(() => requireRoleReach(boundTo([]), TENANT, 'role', 'change a shared role', false)).toThrow(expect.objectContaining({ code: 'not_found' }));
  });
});
