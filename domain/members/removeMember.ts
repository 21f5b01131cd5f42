import { memberChangeEffects } from '../changeEffects/memberChangeEffects.ts';
import { notFound } from '../errors.ts';
import type { RegistryContext } from '../registryContext.ts';
import type { RequestMeta } from '../requestMeta.ts';
import { requireActiveAdminKept } from './lastActiveAdmin.ts';
import { memberAuditEvent } from './memberAuditEvent.ts';
import type { MemberChange, MemberChangeFacts } from './memberRepository.ts';

/**
 * The removal rule: the member's record and roles go (`member.removed`, with what it had), unless it is the last
 * active IT_ADMIN of a tenant that keeps other members (409); a user that is not a member is 404.
 */
export function planMemberRemoval(facts: MemberChangeFacts): MemberChange<void> {
  const before = facts.member;
  if (!before) throw notFound('member');
  requireActiveAdminKept(facts, undefined);
  return {
    remove: true,
    event: memberAuditEvent('member.removed', before, { roles: before.roles, status: before.status, source: before.source }),
    result: undefined,
  };
}

export async function removeMember({ stores, effects }: RegistryContext, tenantId: string, userId: string, meta: RequestMeta): Promise<void> {
  const written = await stores.members.change(tenantId, userId, meta, [], planMemberRemoval);
  if (!written) throw notFound('tenant');
  effects.follow(memberChangeEffects(tenantId, userId, written));
}
