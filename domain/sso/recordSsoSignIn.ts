import { requireReach, type TenantReach } from '../access/tenantReach.ts';
import { memberChangeEffects } from '../changeEffects/memberChangeEffects.ts';
import { AppError, notFound } from '../errors.ts';
import { memberAuditEvent } from '../members/memberAuditEvent.ts';
import type { MemberRecord } from '../members/memberRecord.ts';
import type { MemberChange, MemberChangeFacts } from '../members/memberRepository.ts';
import type { RegistryContext } from '../registryContext.ts';
import { SYSTEM_ACTOR, type RequestMeta } from '../requestMeta.ts';
import { tenantSettingsOf } from '../tenants/tenantSettings.ts';
import type { DirectoryUser } from '../members/userDirectory.ts';
import { admitSsoEmail } from './admitSsoEmail.ts';

/**
 * The rule of a sign-in through a tenant's SSO connection: a user that is no member of the tenant becomes an active one
 * with the tenant's default role (MEMBER when that role is gone), source `sso` (`member.added`); a member stays as it
 * is, whatever its status (a deactivated member is not reactivated by signing in).
 */
export function planSsoMember(tenantId: string, user: DirectoryUser, defaultRole: string) {
  return (facts: MemberChangeFacts, now: Date): MemberChange<{ member: MemberRecord; created: boolean }> => {
    if (facts.member) return { result: { member: facts.member, created: false } };
    const roles = facts.knownRoles.has(defaultRole) ? [defaultRole] : ['MEMBER'];
    const member: MemberRecord = {
      tenantId,
      userId: user.userId,
      email: user.email,
      name: user.name,
      roles,
      permissions: [...(facts.knownRoles.get(roles[0]!) ?? [])],
      status: 'active',
      source: 'sso',
      createdAt: now,
      updatedAt: now,
    };
    return { put: member, event: memberAuditEvent('member.added', member, { roles, source: 'sso' }), result: { member, created: true } };
  };
}

/**
 * The provider's report of a sign-in through the identity provider `alias` (the Keycloak extension's event listener),
 * believed only when the provider links the user to that identity provider (404 otherwise) and the account's e-mail, as
 * the provider holds it, is at one of the connection's verified domains (403 and `sso.sign_in_refused` otherwise).
 */
export async function recordSsoSignIn(
  context: RegistryContext,
  alias: string,
  reported: DirectoryUser,
  reach: TenantReach,
  meta: RequestMeta,
): Promise<{ member: MemberRecord; created: boolean }> {
  const { stores, effects, ssoLinks, users } = context;
  const connection = await stores.ssoConnections.byAlias(alias);
  if (!connection) throw notFound('sso connection');
  requireReach(reach, connection.tenantId, 'sso connection');
  // Only a sign-in the provider itself knows of makes a member: a caller cannot name any user it likes.
  if (!ssoLinks) throw new AppError('unavailable', 'identity provider not configured');
  const unreachable = () => {
    throw new AppError('unavailable', 'the identity provider could not be asked about the sign-in');
  };
  if (!(await ssoLinks.signedInThrough(reported.userId, alias).catch(unreachable))) throw notFound('sign-in through this identity provider');
  // The account's own e-mail is judged, not the report's: it is the address invitations and directories bind to.
  const account = users ? await users.findUser(reported.userId).catch(unreachable) : undefined;
  if (!account) throw notFound('sign-in through this identity provider');
  await admitSsoEmail(context, connection, account.email, meta);
  const user: DirectoryUser = { userId: account.userId, email: account.email.toLowerCase(), name: account.name || reported.name };
  const tenant = await stores.tenants.find({ by: 'id', id: connection.tenantId });
  if (!tenant) throw notFound('tenant');
  const defaultRole = tenantSettingsOf(tenant.settings).default_role;
  const written = await stores.members.change(tenant.id, user.userId, SYSTEM_ACTOR, [defaultRole, 'MEMBER'], planSsoMember(tenant.id, user, defaultRole));
  if (!written) throw notFound('tenant');
  if (written.handOffs.length > 0) effects.follow(memberChangeEffects(tenant.id, user.userId, written));
  return written.result;
}
