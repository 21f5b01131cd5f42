import { requireReach, type TenantReach } from '../access/tenantReach.ts';
import { notFound } from '../errors.ts';
import type { RegistryContext } from '../registryContext.ts';
import type { InvitationRecord } from './invitationRecord.ts';

/** One invitation; another tenant's, for a caller bound to tenants, is one that does not exist. */
export async function getInvitation({ stores }: RegistryContext, id: string, reach: TenantReach): Promise<InvitationRecord> {
  const invitation = await stores.invitations.find(id);
  if (!invitation) throw notFound('invitation');
  requireReach(reach, invitation.tenantId, 'invitation');
  return invitation;
}
