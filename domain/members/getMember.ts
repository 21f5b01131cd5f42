import { notFound } from '../errors.ts';
import type { RegistryContext } from '../registryContext.ts';
import type { MemberRecord } from './memberRecord.ts';

/** One member of the tenant; a user that is not one (or a tenant that does not exist) is 404. */
export async function getMember({ stores }: RegistryContext, tenantId: string, userId: string): Promise<MemberRecord> {
  const member = await stores.members.find(tenantId, userId);
  if (!member) throw notFound('member');
  return member;
}
