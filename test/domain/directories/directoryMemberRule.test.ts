import { describe, expect, it } from 'vitest';
import { planDirectoryMember, type DirectoryMemberRequest } from '../../../domain/directories/directoryMemberRule.ts';
import type { MemberChangeFacts } from '../../../domain/members/memberRepository.ts';
import type { MemberRecord, MemberSource } from '../../../domain/members/memberRecord.ts';

const now = new Date('2026-12-01T00:00:00Z');
const T = '00000000-0000-4000-8000-00000000000a';
const request = (extra: Partial<DirectoryMemberRequest> = {}): DirectoryMemberRequest => ({
  tenantId: T, directoryId: 'd', userId: 'u', email: 'u@acme.example', name: 'U', active: true, deleted: false, askedRoles: ['MEMBER'], ...extra,
});
const member = (source: MemberSource, extra: Partial<MemberRecord> = {}): MemberRecord => ({
  tenantId: T, userId: 'u', email: 'u@acme.example', name: 'U', roles: ['MEMBER'], permissions: [], status: 'active', source, createdAt: now, updatedAt: now, ...extra,
});
const facts = (before: MemberRecord | undefined, extra: Partial<MemberChangeFacts> = {}): MemberChangeFacts => ({
  member: before, members: 2, activeAdmins: 1, knownRoles: new Map([['MEMBER', []], ['IT_ADMIN', ['members:manage']]]), ...extra,
});

describe('planDirectoryMember: a directory changes only the members it made', () => {
  it.each(['provisioning', 'invitation', 'registry', 'sso'] as const)('a member from %s is neither deactivated, removed nor re-roled', (source) => {
    const before = member(source, { roles: ['IT_ADMIN'] });
    for (const asked of [request({ active: false }), request({ deleted: true }), request({ askedRoles: ['MEMBER'] })]) {
      expect(planDirectoryMember(asked, facts(before), now)).toEqual({ result: { member: 'none', noActiveAdmin: false } });
    }
  });

  it('its own member: deactivated, given the roles asked that the tenant has, removed when deleted', () => {
    expect(planDirectoryMember(request({ active: false }), facts(member('directory')), now)).toMatchObject({ put: { status: 'inactive' }, event: { action: 'member.deactivated' } });
    expect(planDirectoryMember(request({ askedRoles: ['IT_ADMIN', 'NOPE'] }), facts(member('directory')), now)).toMatchObject({ put: { roles: ['IT_ADMIN'], permissions: ['members:manage'] }, event: { action: 'member.roles_changed' } });
    expect(planDirectoryMember(request({ deleted: true }), facts(member('directory')), now)).toMatchObject({ remove: true, event: { action: 'member.removed' } });
  });

  it('a new active SCIM user becomes a member of source directory; an inactive one makes none', () => {
    expect(planDirectoryMember(request(), facts(undefined), now)).toMatchObject({ put: { source: 'directory', status: 'active', roles: ['MEMBER'] }, event: { action: 'member.added' } });
    expect(planDirectoryMember(request({ active: false }), facts(undefined), now)).toEqual({ result: { member: 'none', noActiveAdmin: false } });
  });

  it('may take away the last active IT_ADMIN it made, and says the tenant has none left', () => {
    const admin = member('directory', { roles: ['IT_ADMIN'] });
    expect(planDirectoryMember(request({ active: false, askedRoles: ['IT_ADMIN'] }), facts(admin), now)).toMatchObject({ put: { status: 'inactive' }, result: { noActiveAdmin: true } });
    expect(planDirectoryMember(request({ deleted: true }), facts(admin), now)).toMatchObject({ remove: true, result: { noActiveAdmin: true } });
    expect(planDirectoryMember(request({ active: false, askedRoles: ['IT_ADMIN'] }), facts(admin, { activeAdmins: 2 }), now).result.noActiveAdmin).toBe(false);
    expect(planDirectoryMember(request({ deleted: true }), facts(admin, { members: 1 }), now).result.noActiveAdmin).toBe(false);
  });
});
