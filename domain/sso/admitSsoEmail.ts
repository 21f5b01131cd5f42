import { requireReach, type TenantReach } from '../access/tenantReach.ts';
import { AppError } from '../errors.ts';
import type { RegistryContext } from '../registryContext.ts';
import type { RequestMeta } from '../requestMeta.ts';
import { ssoConnectionAuditEvent } from './ssoConnectionAuditEvent.ts';
import type { DeletedSsoConnection, SsoConnectionRecord } from './ssoConnectionRecord.ts';
import { ssoEmailVerdict } from './ssoEmailRule.ts';

/**
 * Applies the connection's e-mail rule (ssoEmailRule.ts) to a sign-in through it: the e-mail's domain when it is
 * believed; otherwise `sso.sign_in_refused` goes to the connection's tenant's log and the caller gets 403. The event
 * names the domain asserted, never the address: the tenant learns what its provider claimed, not who it named.
 */
export async function admitSsoEmail({ stores }: RegistryContext, connection: SsoConnectionRecord | DeletedSsoConnection, email: string | undefined, meta: RequestMeta): Promise<string> {
  const verified = new Set(connection.state === 'deleted' ? [] : await stores.domains.verifiedNames(connection.tenantId));
  const verdict = ssoEmailVerdict(connection, verified, email);
  if (verdict.allowed) return verdict.emailDomain;
  await stores.audit.append(ssoConnectionAuditEvent('sso.sign_in_refused', connection, { email_domain: verdict.emailDomain, reason: verdict.reason }), meta);
  throw new AppError('forbidden', `this SSO connection does not sign in ${verdict.emailDomain === null ? 'a user without an e-mail' : `addresses at ${verdict.emailDomain}`} (${verdict.reason})`);
}

/** The registry's answer to a sign-in through an identity provider: a tenant's connection that believes the e-mail, or no tenant's at all. */
export type SsoSignInVerdict = { tenantConnection: true; emailDomain: string } | { tenantConnection: false };

/**
 * The identity provider's question before a sign-in through `alias` makes, links or signs in an account, for any
 * protocol: the registry's record says whether the alias is a tenant's connection, not its name. A connection's
 * (a deleted one's included) is judged by its e-mail rule (403 when refused); an alias that was never one is no
 * tenant's, and the provider's own flow decides.
 */
export async function checkSsoSignIn(context: RegistryContext, alias: string, email: string | undefined, reach: TenantReach, meta: RequestMeta): Promise<SsoSignInVerdict> {
  const { ssoConnections } = context.stores;
  const connection = (await ssoConnections.byAlias(alias)) ?? (await ssoConnections.deletedByAlias(alias));
  if (!connection) return { tenantConnection: false };
  requireReach(reach, connection.tenantId, 'sso connection');
  return { tenantConnection: true, emailDomain: await admitSsoEmail(context, connection, email, meta) };
}
