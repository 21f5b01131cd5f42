import { ApplicationFailure, log } from '@temporalio/activity';
import { tenantGovernsAccount } from '../../domain/accounts/tenantGovernance.ts';
import { changeDirectoryMember } from '../../domain/directories/changeDirectoryMember.ts';
import { directoryAccountEnabled, directoryMemberRequest } from '../../domain/directories/directoryMemberRule.ts';
import type { DirectoryRecord } from '../../domain/directories/directoryRecord.ts';
import type { DirectoryUserRecord } from '../../domain/directories/directoryUserRecord.ts';
import { emailOf, nameOf } from '../../domain/directories/scimUserResource.ts';
import { SYSTEM_ACTOR } from '../../domain/requestMeta.ts';
import { ssoAliasOf, type SsoConnectionRecord } from '../../domain/sso/ssoConnectionRecord.ts';
import type { SsoServiceProvider } from '../../domain/sso/ssoServiceProvider.ts';
import type { TenantRecord } from '../../domain/tenants/tenantRecord.ts';
import { tenantSettingsOf } from '../../domain/tenants/tenantSettings.ts';
import type { PushedMembership, SsoProvider, TenantRef } from '../../identityProvider/identityProvider.ts';
import { organizationNameOf } from '../../domain/provisioning/provisioningVocabulary.ts';
import type { ActorActivityContext } from './actorActivityContext.ts';
import { asActivityFailure } from './activityFailures.ts';
import { ensureOrganization } from './organizationActivities.ts';
import { productClientsFor, pushedMembershipOf } from './pushedMembership.ts';

/** The tenant as the provider's organization knows it. */
const tenantRefOf = (tenant: Pick<TenantRecord, 'id' | 'slug' | 'name'>): TenantRef => ({ tenantId: tenant.id, slug: tenant.slug, name: organizationNameOf(tenant) });

/**
 * Makes the provider match the member's record as it is now, whatever the change that asked for it (so a repeat,
 * or a sync of an older change, converges to the same): an active or pending member is in the tenant's
 * organization with its claims pushed; an inactive one is out of it with membership status `inactive` and no
 * roles; a user that is no member (removed) is out of it with the tenant's value removed.
 */
export async function syncMemberNow(
  context: ActorActivityContext,
  tenantId: string,
  userId: string,
  asOf: number,
): Promise<{ membership: PushedMembership['membership_status'] | 'removed' }> {
  const { stores, idp } = context;
  const [tenant, snapshot, member, clients] = await Promise.all([
    stores.tenants.find({ by: 'id', id: tenantId }),
    stores.tenants.snapshot({ by: 'id', id: tenantId }),
    stores.members.find(tenantId, userId),
    productClientsFor(context),
  ]);
  if (!tenant || !snapshot) {
    // Members go with their tenant: there is no organization of theirs to match.
    log.warn('member sync for a tenant that does not exist', { tenantId, userId });
    return { membership: 'none' };
  }
  const { organizationId } = await asActivityFailure(() => idp.ensureOrganization(tenantRefOf(tenant)));
  const inOrganization = member !== undefined && member.status !== 'inactive';
  if (inOrganization) await asActivityFailure(() => idp.ensureMembership(organizationId, userId));
  else await asActivityFailure(() => idp.removeMembership(organizationId, userId));
  const pushed = member ? pushedMembershipOf(snapshot, member, asOf, clients) : null;
  await asActivityFailure(() => idp.pushMembership(userId, tenant.slug, pushed));
  log.info('synced member', { tenantId, userId, membership: pushed?.membership_status ?? 'removed' });
  return { membership: pushed?.membership_status ?? 'removed' };
}

/** The tenant's organization's domains set to those it holds verified (the actor's syncDomains). */
async function syncOrganizationDomains(context: ActorActivityContext, tenantId: string): Promise<{ domains: number }> {
  const { stores, idp, step } = context;
  const tenant = await stores.tenants.find({ by: 'id', id: tenantId });
  if (!tenant || !stores.domains) return { domains: 0 };
  const names = await stores.domains.verifiedNames(tenantId);
  const ref = tenantRefOf(tenant);
  await ensureOrganization(context, ref);
  await step('domains', () => asActivityFailure(() => idp.setOrganizationDomains(ref, names)));
  log.info('synced organization domains', { tenantId, domains: names.length });
  return { domains: names.length };
}

/**
 * The SSO connection's identity provider made to match it (the actor's syncSso): made or updated and linked to the
 * tenant's organization, enabled while the connection is active; deleted when the connection is gone.
 */
async function syncSsoProvider(context: ActorActivityContext, tenantId: string, connectionId: string): Promise<{ provider: 'put' | 'removed' }> {
  const { stores, idp, step } = context;
  const connection = await stores.ssoConnections?.find(connectionId);
  const tenant = await stores.tenants.find({ by: 'id', id: tenantId });
  if (!connection || !tenant) {
    await step('sso', () => asActivityFailure(() => idp.removeSsoProvider(ssoAliasOf(connectionId))));
    return { provider: 'removed' };
  }
  const ref = tenantRefOf(tenant);
  await ensureOrganization(context, ref);
  const provider = ssoProviderOf(connection, idp.ssoServiceProvider(connection.idpAlias));
  await step('sso', () => asActivityFailure(() => idp.putSsoProvider(ref, provider)));
  log.info('synced SSO identity provider', { tenantId, connectionId, alias: connection.idpAlias, state: connection.state });
  return { provider: 'put' };
}

/** The connection as the provider's identity provider is made of it: OIDC's endpoints and client, or SAML's IdP and SP. */
function ssoProviderOf(connection: SsoConnectionRecord, sp: SsoServiceProvider): SsoProvider {
  const common = { alias: connection.idpAlias, domains: connection.domains, enabled: connection.state === 'active' };
  if (connection.protocol === 'saml') {
    const { entityId, ssoUrl, ssoBinding, wantAuthnRequestsSigned, certificates } = connection.saml;
    return {
      ...common,
      protocol: 'saml',
      idpEntityId: entityId,
      ssoUrl,
      ssoBinding,
      wantAuthnRequestsSigned,
      certificates,
      serviceProvider: { entityId: sp.entityId, acsUrl: sp.acsUrl, metadataUrl: sp.metadataUrl },
    };
  }
  return {
    ...common,
    protocol: 'oidc',
    issuer: connection.issuer,
    authorizationUrl: connection.endpoints.authorizationEndpoint,
    tokenUrl: connection.endpoints.tokenEndpoint,
    jwksUrl: connection.endpoints.jwksUri,
    userInfoUrl: connection.endpoints.userinfoEndpoint,
    clientId: connection.clientId,
    clientSecret: connection.clientSecret,
  };
}

type DirectoryMember = 'active' | 'inactive' | 'removed' | 'none';

/**
 * A directory's SCIM user made to match in the provider and the tenant (the actor's syncDirectoryUser): linked once
 * (linkDirectoryUser), its member changed as domain/directories/ decides (changeDirectoryMember: only members the
 * directory made change; tenant.no_active_admin when the last active IT_ADMIN goes), its account enabled or disabled
 * when directoryAccountEnabled says so. A deleted SCIM user's member removed and the SCIM user forgotten. The member's
 * side in the provider is synced at once.
 */
async function syncDirectoryUser(context: ActorActivityContext, tenantId: string, directoryId: string, scimUserId: string): Promise<{ member: DirectoryMember }> {
  const { stores, idp, step } = context;
  const directoryUsers = stores.directoryUsers;
  const directory = await stores.directories?.find(directoryId);
  const user = await directoryUsers?.find(directoryId, scimUserId, true);
  const tenant = await stores.tenants.find({ by: 'id', id: tenantId });
  if (!directoryUsers || !user || !tenant || !directory || directory.tenantId !== tenantId) return { member: 'none' };
  const linked = user.userId ? { userId: user.userId, owned: user.owned } : await linkDirectoryUser(context, tenant, directory, user);
  if (linked === 'removed') await directoryUsers.purge(directoryId, scimUserId);
  if (typeof linked === 'string') return { member: linked };
  const { userId, owned } = linked;
  // The groups of a SCIM user still there: a deleted one's ask for nothing.
  const groupNames = user.deletedAt ? [] : ((await stores.directoryGroups?.namesOfMember(directoryId, scimUserId)) ?? []);
  const request = directoryMemberRequest(directory, user, userId, tenantSettingsOf(tenant.settings).default_role, groupNames);
  // Judged before the member changes: a leaver's removal takes the account's home tenant with it.
  const mayTouchAccount = owned && (await governedAccount(context, tenantId, userId, owned));
  const outcomeId = `no_active_admin:${directoryId}:${scimUserId}:${user.updatedAt.getTime()}`;
  const written = await changeDirectoryMember(stores, request, SYSTEM_ACTOR, outcomeId);
  const outcome = written?.result ?? { member: 'none' as const, noActiveAdmin: false };
  if (written?.handOffs.length) {
    await syncMemberNow(context, tenantId, userId, Date.now());
    await stores.outbox?.markDelivered(written.handOffs.map((h) => h.id));
  }
  const enabled = directoryAccountEnabled(request, mayTouchAccount, outcome);
  if (enabled !== undefined) await step('user', () => asActivityFailure(() => idp.setUserEnabled(userId, enabled)));
  if (user.deletedAt) {
    await directoryUsers.purge(directoryId, scimUserId);
    return { member: 'removed' };
  }
  log.info('synced directory user', { tenantId, directoryId, scimUserId, userId, active: user.active });
  return { member: outcome.member };
}

/**
 * Links a SCIM user not linked yet to the account holding its e-mail when the tenant governs that account, or to a
 * new one it makes (SPEC-EXTENSIONS §13): answers the account, and whether the directory made it. An account the
 * tenant does not govern links nothing (`none`); a SCIM user deleted before it was linked is `removed`.
 */
async function linkDirectoryUser(
  context: ActorActivityContext,
  tenant: TenantRecord,
  directory: DirectoryRecord,
  user: DirectoryUserRecord,
): Promise<{ userId: string; owned: boolean } | 'removed' | 'none'> {
  const { stores, idp, step } = context;
  if (user.deletedAt) return 'removed';
  const email = emailOf(user);
  if (!email) throw ApplicationFailure.create({ type: 'rejected', message: `SCIM user ${user.id} has no e-mail address`, nonRetryable: true });
  const holder = await step('find_user', () => asActivityFailure(() => idp.findAccount({ address: email })));
  // The API refused such a SCIM user; an account made since then is still not the directory's to take.
  if (holder && !(await tenantGovernsAccount(stores, tenant.id, holder))) {
    log.warn('SCIM user not linked: its address is an account the tenant does not govern', { tenantId: tenant.id, directoryId: directory.id, scimUserId: user.id });
    return 'none';
  }
  const made = await step('user', () => asActivityFailure(() => idp.ensureDirectoryUser(tenantRefOf(tenant), email, nameOf(user))));
  if (!made.created && made.userId !== holder?.userId && !(await governedAccount(context, tenant.id, made.userId, false))) return 'none';
  await stores.directoryUsers?.recordUser(directory.id, user.id, made.userId, made.created);
  return { userId: made.userId, owned: made.created };
}

/** Whether the tenant governs the provider's account `userId` (`madeHere`: the tenant made it), as §13 has it. */
async function governedAccount({ stores, idp, step }: ActorActivityContext, tenantId: string, userId: string, madeHere: boolean): Promise<boolean> {
  const account = await step('find_user', () => asActivityFailure(() => idp.findAccount({ userId })));
  return account !== undefined && (await tenantGovernsAccount(stores, tenantId, account, madeHere));
}

/** The syncs family's activities: the provider made to match a member, the organization's domains, an SSO connection, a SCIM user. */
export const syncActivities = (context: ActorActivityContext) => ({
  syncMember: (tenantId: string, userId: string, asOf?: number) => context.step('sync_member', () => syncMemberNow(context, tenantId, userId, asOf ?? Date.now())),
  syncOrganizationDomains: (tenantId: string) => syncOrganizationDomains(context, tenantId),
  syncSsoProvider: (tenantId: string, connectionId: string) => syncSsoProvider(context, tenantId, connectionId),
  syncDirectoryUser: (tenantId: string, directoryId: string, scimUserId: string) => syncDirectoryUser(context, tenantId, directoryId, scimUserId),
});
