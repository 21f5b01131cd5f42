import { memberChangeEffects } from '../changeEffects/memberChangeEffects.ts';
import { notFound } from '../errors.ts';
import type { RegistryContext } from '../registryContext.ts';
import type { RequestMeta } from '../requestMeta.ts';
import { memberAuditEvent } from './memberAuditEvent.ts';
import type { MemberRecord } from './memberRecord.ts';
import type { MemberChange, MemberChangeFacts } from './memberRepository.ts';

/**
 * The break-glass rule: a member of any status may be marked (or unmarked) as one who signs in without the tenant's
 * required SSO (`member.break_glass_changed`, old and new); the same value again is answered as it is, nothing written.
 */
export function planBreakGlass(breakGlass: boolean) {
  return (facts: MemberChangeFacts, now: Date): MemberChange<MemberRecord> => {
    const before = facts.member;
    if (!before) throw notFound('member');
    if ((before.breakGlass ?? false) === breakGlass) return { result: before };
    const member: MemberRecord = { ...before, breakGlass, updatedAt: now };
    return { put: member, event: memberAuditEvent('member.break_glass_changed', member, { from: before.breakGlass ?? false, to: breakGlass }), result: member };
  };
}

/** Marks the member break-glass or not; its pushed attributes follow through the tenant's actor (syncMember). */
export async function setBreakGlass({ stores, effects }: RegistryContext, tenantId: string, userId: string, breakGlass: boolean, meta: RequestMeta): Promise<MemberRecord> {
  const written = await stores.members.change(tenantId, userId, meta, [], planBreakGlass(breakGlass));
  if (!written) throw notFound('tenant');
  if (written.handOffs.length > 0) effects.follow(memberChangeEffects(tenantId, userId, written));
  return written.result;
}
