import { requireReach, type TenantReach } from '../access/tenantReach.ts';
import { AppError, notFound } from '../errors.ts';
import type { RegistryContext } from '../registryContext.ts';
import type { RequestMeta } from '../requestMeta.ts';
import { ssoConnectionAuditEvent } from './ssoConnectionAuditEvent.ts';
import type { SsoConnectionRecord } from './ssoConnectionRecord.ts';
import { ssoEmailVerdict } from './ssoEmailRule.ts';

/**
 * Applies the connection's e-mail rule (ssoEmailRule.ts) to a sign-in through it: the e-mail's domain when it is
 * believed; otherwise `sso.sign_in_refused` goes to the connection's tenant's log and the caller gets 403. The event
 * names the domain asserted, never the address: the tenant learns what its provider claimed, not who it named.
 */
export async function admitSsoEmail({ stores }: RegistryContext, connection: SsoConnectionRecord, email: string | undefined, meta: RequestMeta): Promise<string> {
  const verified = new Set(await stores.domains.verifiedNames(connection.tenantId));
  const verdict = ssoEmailVerdict(connection, verified, email);
  if (verdict.allowed) return verdict.emailDomain;
  await stores.audit.append(ssoConnectionAuditEvent('sso.sign_in_refused', connection, { email_domain: verdict.emailDomain, reason: verdict.reason }), meta);
  throw new AppError('forbidden', `this SSO connection does not sign in ${verdict.emailDomain === null ? 'a user without an e-mail' : `addresses at ${verdict.emailDomain}`} (${verdict.reason})`);
}

/** The identity provider's question before a first sign-in through `alias` makes or links an account. */
export async function checkSsoSignIn(context: RegistryContext, alias: string, email: string | undefined, reach: TenantReach, meta: RequestMeta): Promise<string> {
  const connection = await context.stores.ssoConnections.byAlias(alias);
  if (!connection) throw notFound('sso connection');
  requireReach(reach, connection.tenantId, 'sso connection');
  return admitSsoEmail(context, connection, email, meta);
}
