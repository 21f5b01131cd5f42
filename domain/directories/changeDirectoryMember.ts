import type { RegistryStores } from '../registryStores.ts';
import type { RequestMeta } from '../requestMeta.ts';
import type { AuditAppend } from '../schemas/audit.ts';
import type { MemberChangeWritten } from '../members/memberRepository.ts';
import { planDirectoryMember, type DirectoryMemberOutcome, type DirectoryMemberRequest } from './directoryMemberRule.ts';

/**
 * A directory's change of the member of one account, as planDirectoryMember decides it (the tenant's actor syncing a
 * SCIM user, a directory's deletion taking its members), and `tenant.no_active_admin` when it took the tenant's last
 * active IT_ADMIN. The actor names the event with `outcomeId`, so a retried sync appends it once; a deletion appends
 * it as the deleting request's own.
 */
export async function changeDirectoryMember(
  stores: Pick<RegistryStores, 'members' | 'audit'>,
  request: DirectoryMemberRequest,
  meta: RequestMeta,
  outcomeId?: string,
): Promise<MemberChangeWritten<DirectoryMemberOutcome> | undefined> {
  // The roles the rule may give, and MEMBER, which it gives when the tenant knows none of them.
  const roles = request.deleted ? [] : [...request.askedRoles, 'MEMBER'];
  const written = await stores.members.change(request.tenantId, request.userId, meta, roles, (facts, now) => planDirectoryMember(request, facts, now));
  if (written?.result.noActiveAdmin) {
    const event = noActiveAdminEvent(request);
    if (outcomeId) await stores.audit.appendOutcomeOnce({ ...event, metadata: { ...event.metadata, outcome_id: outcomeId } }, meta);
    else await stores.audit.append(event, meta);
  }
  return written;
}

const noActiveAdminEvent = ({ tenantId, directoryId, userId }: DirectoryMemberRequest): AuditAppend & { tenant_id: string; metadata: Record<string, unknown> } => ({
  action: 'tenant.no_active_admin',
  tenant_id: tenantId,
  target_id: tenantId,
  target_type: 'tenant',
  metadata: { directory_id: directoryId, user_id: userId },
});
