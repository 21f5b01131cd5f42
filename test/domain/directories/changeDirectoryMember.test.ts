import { describe, expect, it } from 'vitest';
import { changeDirectoryMember } from '../../../domain/directories/changeDirectoryMember.ts';
import type { DirectoryMemberRequest } from '../../../domain/directories/directoryMemberRule.ts';
import type { AuditRepository } from '../../../domain/audit/auditRepository.ts';
import type { AuditAppend } from '../../../domain/schemas/audit.ts';
import { TENANT, tenantWithMembers } from '../../support/fakes/tenantWithMembers.ts';

const meta = {};
const leaver = (userId: string, extra: Partial<DirectoryMemberRequest> = {}): DirectoryMemberRequest => ({
  tenantId: TENANT, directoryId: 'd', userId, email: `${userId}@example.test`, name: userId, active: true, deleted: true, askedRoles: [], ...extra,
});

/** The tenant with a second member and an IT_ADMIN the directory made, and an audit log that keeps what is appended. */
function setup() {
  const { registry, members } = tenantWithMembers();
  members.seed({ tenantId: TENANT, userId: 'boss', email: 'boss@example.test', name: 'boss', roles: ['IT_ADMIN'], status: 'active', source: 'directory' });
  members.seed({ tenantId: TENANT, userId: 'ada', email: 'ada@example.test', name: 'ada', roles: ['MEMBER'], status: 'active', source: 'registry' });
  const appended: { event: AuditAppend; once: boolean }[] = [];
  const audit = {
    append: async (event: AuditAppend) => void appended.push({ event, once: false }),
    appendOutcomeOnce: async (event: AuditAppend & { metadata: { outcome_id: string } }) => {
      if (!appended.some((a) => a.event.metadata?.outcome_id === event.metadata.outcome_id)) appended.push({ event, once: true });
    },
  } as unknown as AuditRepository;
  return { stores: { members, audit }, members, appended };
}

describe("changeDirectoryMember: a directory's change of one member and what the tenant is told", () => {
  it('appends tenant.no_active_admin when the change took the last active IT_ADMIN, once per outcome id when the actor names one', async () => {
    const { stores, members, appended } = setup();
    await changeDirectoryMember(stores, leaver('boss', { deleted: false, active: false, askedRoles: ['IT_ADMIN'] }), meta, 'no_active_admin:d:s:1');
    expect((await members.find(TENANT, 'boss'))?.status).toBe('inactive');
    // A retried sync asks again after the change was written: still reported, and appended once.
    await changeDirectoryMember(stores, leaver('boss', { deleted: false, active: false, askedRoles: ['IT_ADMIN'] }), meta, 'no_active_admin:d:s:1');
    expect(appended).toEqual([
      { once: true, event: { action: 'tenant.no_active_admin', tenant_id: TENANT, target_id: TENANT, target_type: 'tenant', metadata: { directory_id: 'd', user_id: 'boss', outcome_id: 'no_active_admin:d:s:1' } } },
    ]);
  });

  it("appends it as the request's own without an outcome id (a directory's deletion), and not when an active IT_ADMIN is left", async () => {
    const { stores, members, appended } = setup();
    members.seed({ tenantId: TENANT, userId: 'second', email: 'second@example.test', name: 'second', roles: ['IT_ADMIN'], status: 'active', source: 'registry' });
    await changeDirectoryMember(stores, leaver('boss'), meta);
    expect(appended).toEqual([]);
    await members.change(TENANT, 'second', meta, [], () => ({ remove: true, result: undefined }));
    members.seed({ tenantId: TENANT, userId: 'boss', email: 'boss@example.test', name: 'boss', roles: ['IT_ADMIN'], status: 'active', source: 'directory' });
    await changeDirectoryMember(stores, leaver('boss'), meta);
    expect(await members.find(TENANT, 'boss')).toBeUndefined();
    expect(appended).toMatchObject([{ once: false, event: { action: 'tenant.no_active_admin', metadata: { directory_id: 'd', user_id: 'boss' } } }]);
  });

  it('changes no member the directory did not make, and tells nothing', async () => {
    const { stores, members, appended } = setup();
    const written = await changeDirectoryMember(stores, leaver('ada'), meta, 'no_active_admin:d:a:1');
    expect(written?.result).toEqual({ member: 'none', noActiveAdmin: false });
    expect((await members.find(TENANT, 'ada'))?.status).toBe('active');
    expect(appended).toEqual([]);
  });
});
