import { memberChangeEffects } from '../changeEffects/memberChangeEffects.ts';
import { notFound } from '../errors.ts';
import type { RegistryContext } from '../registryContext.ts';
import type { RequestMeta } from '../requestMeta.ts';
import { requireActiveAdminKept } from './lastActiveAdmin.ts';
import { memberAuditEvent } from './memberAuditEvent.ts';
import type { MemberRecord } from './memberRecord.ts';
import type { MemberChange, MemberChangeFacts } from './memberRepository.ts';

/**
 * The deactivation rule: an active or pending member becomes inactive (`member.deactivated`), keeping its record and
 * roles, unless it is the tenant's last active IT_ADMIN (409); an inactive one is answered as it is, nothing written.
 */
export function planDeactivation(facts: MemberChangeFacts, now: Date): MemberChange<MemberRecord> {
  const before = facts.member;
  if (!before) throw notFound('member');
  if (before.status === 'inactive') return { result: before };
  requireActiveAdminKept(facts, { status: 'inactive', roles: before.roles });
  const member: MemberRecord = { ...before, status: 'inactive', updatedAt: now };
  return { put: member, event: memberAuditEvent('member.deactivated', member, { from: before.status, to: member.status }), result: member };
}

export async function deactivateMember({ stores, effects }: RegistryContext, tenantId: string, userId: string, meta: RequestMeta): Promise<MemberRecord> {
  const written = await stores.members.change(tenantId, userId, meta, [], planDeactivation);
  if (!written) throw notFound('tenant');
  if (written.handOffs.length > 0) effects.follow(memberChangeEffects(tenantId, userId, written));
  return written.result;
}
