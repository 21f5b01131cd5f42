import { describe, expect, it } from 'vitest';
import { isActiveAdmin, requireActiveAdminKept } from '../../../domain/members/lastActiveAdmin.ts';
import type { MemberRecord, MemberStatus } from '../../../domain/members/memberRecord.ts';
import type { MemberChangeFacts } from '../../../domain/members/memberRepository.ts';

const record = (roles: string[], status: MemberStatus): MemberRecord => ({
  tenantId: '00000000-0000-4000-8000-000000000001',
  userId: 'u',
  email: 'u@example.test',
  name: 'U',
  roles,
  permissions: [],
  status,
  source: 'registry',
  createdAt: new Date(0),
  updatedAt: new Date(0),
});
const facts = (member: MemberRecord | undefined, members: number, activeAdmins: number): MemberChangeFacts => ({ member, members, activeAdmins, knownRoles: new Map() });
const admin = record(['IT_ADMIN', 'MEMBER'], 'active');

describe('requireActiveAdminKept', () => {
  it("refuses each way of taking the last active IT_ADMIN from a tenant that keeps members: demote, deactivate, remove (409)", () => {
    expect(() => requireActiveAdminKept(facts(admin, 2, 1), { status: 'active', roles: ['MEMBER'] })).toThrow(/cannot lose the role IT_ADMIN/);
    expect(() => requireActiveAdminKept(facts(admin, 1, 1), { status: 'inactive', roles: admin.roles })).toThrow(/cannot be deactivated/);
    expect(() => requireActiveAdminKept(facts(admin, 2, 1), undefined)).toThrow(/cannot be removed/);
    try {
      requireActiveAdminKept(facts(admin, 2, 1), undefined);
    } catch (error) {
      expect(error).toMatchObject({ code: 'conflict' });
    }
  });

  it('lets the change pass when another active IT_ADMIN stays, or when the tenant keeps no member', () => {
    expect(() => requireActiveAdminKept(facts(admin, 3, 2), { status: 'active', roles: ['MEMBER'] })).not.toThrow();
    expect(() => requireActiveAdminKept(facts(admin, 3, 2), { status: 'inactive', roles: admin.roles })).not.toThrow();
    expect(() => requireActiveAdminKept(facts(admin, 3, 2), undefined)).not.toThrow();
    expect(() => requireActiveAdminKept(facts(admin, 1, 1), undefined)).not.toThrow();
  });

  it('has nothing to keep when the member is not an active IT_ADMIN: a pending or inactive one, or one without the role, or a new member', () => {
    for (const member of [record(['IT_ADMIN'], 'pending'), record(['IT_ADMIN'], 'inactive'), record(['MEMBER'], 'active'), undefined]) {
      expect(() => requireActiveAdminKept(facts(member, 2, 0), undefined)).not.toThrow();
      expect(() => requireActiveAdminKept(facts(member, 2, 0), { status: 'inactive', roles: ['MEMBER'] })).not.toThrow();
    }
  });

  it('lets a change that keeps the member an active IT_ADMIN pass', () => {
    expect(() => requireActiveAdminKept(facts(admin, 2, 1), { status: 'active', roles: ['IT_ADMIN'] })).not.toThrow();
  });
});

describe('isActiveAdmin', () => {
  it('is an active member holding IT_ADMIN', () => {
    expect(isActiveAdmin(admin)).toBe(true);
    expect(isActiveAdmin(record(['IT_ADMIN'], 'pending'))).toBe(false);
    expect(isActiveAdmin(record(['it_admin'], 'active'))).toBe(false);
  });
});
