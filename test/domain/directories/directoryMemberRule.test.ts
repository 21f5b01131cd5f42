import { describe, expect, it } from 'vitest';
import { directoryAccountEnabled, directoryMemberRequest, planDirectoryMember, type DirectoryMemberRequest } from '../../../domain/directories/directoryMemberRule.ts';
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

describe('directoryMemberRequest: what a SCIM user asks of its member', () => {
  const directory = { id: 'd', tenantId: T, groupRoles: { Admins: ['IT_ADMIN'], Staff: ['MEMBER', 'SUPPORT'] } };
  const user = (extra: { active?: boolean; deletedAt?: Date | null } = {}) => ({
    userName: 'ada', resource: { emails: [{ value: 'ada@acme.example', primary: true }], name: { givenName: 'Ada', familyName: 'Lovelace' } }, active: true, deletedAt: null, ...extra,
  });

  it("asks the tenant's default role and the roles its groups map to, groups the directory does not map asking nothing", () => {
    expect(directoryMemberRequest(directory, user(), 'u', 'MEMBER', ['Admins', 'Unmapped'])).toMatchObject({ tenantId: T, directoryId: 'd', userId: 'u', email: 'ada@acme.example', active: true, deleted: false, askedRoles: ['MEMBER', 'IT_ADMIN'] });
  });

  it("a deleted SCIM user's groups ask for nothing", () => {
    expect(directoryMemberRequest(directory, user({ deletedAt: now }), 'u', 'MEMBER', ['Admins'])).toMatchObject({ deleted: true, askedRoles: ['MEMBER'] });
  });
});

describe('directoryAccountEnabled: a directory enables or disables only an account it made and its tenant governs', () => {
  const changed = { member: 'inactive' as const, noActiveAdmin: false };
  it('disables the account of a leaver or an inactive SCIM user, enables an active one', () => {
    expect(directoryAccountEnabled({ active: false, deleted: false }, true, changed)).toBe(false);
    expect(directoryAccountEnabled({ active: true, deleted: true }, true, { member: 'removed', noActiveAdmin: false })).toBe(false);
    expect(directoryAccountEnabled({ active: true, deleted: false }, true, { member: 'active', noActiveAdmin: false })).toBe(true);
  });

  it('leaves alone an account it may not touch, or whose member it had no say about', () => {
    expect(directoryAccountEnabled({ active: false, deleted: false }, false, changed)).toBeUndefined();
    expect(directoryAccountEnabled({ active: false, deleted: false }, true, { member: 'none', noActiveAdmin: false })).toBeUndefined();
  });
});
