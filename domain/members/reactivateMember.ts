import { memberChangeEffects } from '../changeEffects/memberChangeEffects.ts';
import { notFound } from '../errors.ts';
import type { RegistryContext } from '../registryContext.ts';
import type { RequestMeta } from '../requestMeta.ts';
import { memberAuditEvent } from './memberAuditEvent.ts';
import type { MemberRecord } from './memberRecord.ts';
import type { MemberChange, MemberChangeFacts } from './memberRepository.ts';

/**
 * The reactivation rule: an inactive member becomes active again (`member.reactivated`); an active one, or a pending
 * one (which becomes active by accepting its invitation, not by this), is answered as it is, nothing written.
 */
export function planReactivation(facts: MemberChangeFacts, now: Date): MemberChange<MemberRecord> {
  const before = facts.member;
  if (!before) throw notFound('member');
  if (before.status !== 'inactive') return { result: before };
  const member: MemberRecord = { ...before, status: 'active', updatedAt: now };
  return { put: member, event: memberAuditEvent('member.reactivated', member, { from: before.status, to: member.status }), result: member };
}

export async function reactivateMember({ stores, effects }: RegistryContext, tenantId: string, userId: string, meta: RequestMeta): Promise<MemberRecord> {
  const written = await stores.members.change(tenantId, userId, meta, [], planReactivation);
  if (!written) throw notFound('tenant');
  if (written.handOffs.length > 0) effects.follow(memberChangeEffects(tenantId, userId, written));
  return written.result;
}
