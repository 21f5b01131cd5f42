import { describe, expect, it } from 'vitest';
import { grantedRoles } from '../../../domain/members/memberRoles.ts';

const known = new Map<string, string[]>([
  ['IT_ADMIN', ['audit:read', 'members:manage']],
  ['ops', ['audit:read', 'reports:export']],
  ['MEMBER', []],
]);

describe('grantedRoles', () => {
  it("gives each role once, sorted, with the union of their permissions, sorted", () => {
    expect(grantedRoles(['ops', 'IT_ADMIN', 'ops', 'MEMBER'], known)).toEqual({
      roles: ['IT_ADMIN', 'MEMBER', 'ops'],
      permissions: ['audit:read', 'members:manage', 'reports:export'],
    });
  });

  it('refuses roles the tenant does not have, naming each once (400)', () => {
    expect(() => grantedRoles(['ops', 'b', 'a', 'b'], known)).toThrow('unknown roles for this tenant: a, b');
    expect(() => grantedRoles(['x'], known)).toThrow('unknown role for this tenant: x');
  });

  it('refuses no role at all (400): a member holds at least one', () => {
    expect(() => grantedRoles([], known)).toThrow('roles: a member holds at least one role');
  });
});
