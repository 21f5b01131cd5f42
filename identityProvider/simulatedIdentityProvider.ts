import { randomBytes } from 'node:crypto';
import type { Account, DirectoryUser } from '../domain/members/userDirectory.ts';
import type { Orm } from '../store/orm.ts';
import { nativePool } from '../store/nativePool.ts';
import type { Sql } from '../store/sql.ts';
import {
  IdpError,
  INVITE_ACTIONS,
  IT_ADMIN_ROLE,
  sameAttributes,
  userAttributesWith,
  type IdentityProvider,
  type IdpMembership,
  type InviteLink,
  type SsoProvider,
  type PushedMembership,
  type TenantRef,
} from './identityProvider.ts';
import type { FaultKind, FaultStep } from '../store/simulatorControl.ts';
import type { FaultScope } from '../store/simulatedIdentityProviderTables.ts';
import { PROVISIONING_STEPS } from '../domain/provisioning/provisioningVocabulary.ts';
import {
  actionLink,
  addMembership,
  armedFaultSteps,
  credentialsOfAddress,
  deleteIdentityProvider,
  identityProviderExists,
  identityProviderProtocol,
  deleteMembership,
  insertEmail,
  insertOrganization,
  insertUser,
  memberIdsOfTenant,
  membershipsOfUsers,
  type UserOrganizationRow,
  organizationOfTenant,
  pingTables,
  putIdentityProvider,
  replaceOrganizationDomains,
  replaceUserAttributes,
  setEnabled,
  setFirstPassword,
  type ActionLinkRow,
  takeFault,
  userAttributes,
  userById,
  accountRow,
  usersWithAddress,
  userWithAddress,
} from '../store/simulatedIdentityProviderTables.ts';
import { UUID } from '../store/uuidShape.ts';
import { inviteLinkAsks, type InviteLinkAsks } from '../domain/invitations/inviteLinkAsks.ts';
import { hashPassword, passwordMatches } from './simulatedPasswordHash.ts';
import { ReadBatcher } from '../store/readBatcher.ts';
import { brokerServiceProvider, type SsoServiceProvider } from '../domain/sso/ssoServiceProvider.ts';

/** The simulator's brokers answer under the service's own base URL: `{publicBaseUrl}/idp-sim/broker/{alias}/endpoint[/descriptor]`. */
export const simulatedServiceProvider = (publicBaseUrl: string, alias: string): SsoServiceProvider =>
  brokerServiceProvider(`${publicBaseUrl.replace(/\/+$/, '')}/idp-sim/broker/${encodeURIComponent(alias)}`);

/** Keycloak's default subject of the execute-actions e-mail. */
const INVITE_SUBJECT = 'Update Your Account';


const FAULT_RESPONSES: Record<FaultKind, { status: number; message: string }> = {
  unauthorized: { status: 401, message: 'HTTP 401 Unauthorized' },
  unavailable: { status: 503, message: 'HTTP 503 Service Unavailable' },
  organization_exists: { status: 409, message: 'organization already exists' },
  user_exists: { status: 409, message: 'User exists with same username or email' },
};

const notFound = (what: string) => new IdpError('rejected', `${what} not found`, 404);

/** Rounds of read, change and conditional write while the user keeps changing under a push (as the Keycloak adapter). */
const PUSH_ATTEMPTS = 3;

/**
 * The identity provider used when IDP_ADMIN_URL is empty: Keycloak 26's observable behaviour (organizations,
 * users with a realm role and required actions, memberships, execute-actions e-mails carrying an action-token
 * link) kept in the idp_sim_* tables, so the API and the worker share it and restarts lose nothing.
 *
 * Invite URLs have Keycloak's action-token shape under the service's own base URL:
 * `{publicBaseUrl}/idp-sim/login-actions/action-token?key={token}`, token = 32 random bytes, base64url.
 *
 * Its statements are in store/simulatedIdentityProviderTables.ts. Faults injected through store/simulatorControl.ts
 * are consulted before every operation. A failure of the simulator's
 * own store surfaces as `unavailable`, as an unreachable Keycloak would.
 */
export class SimulatedIdentityProvider implements IdentityProvider {
  readonly #orm: Orm;
  readonly #actionTokenUrl: string;
  readonly #publicBaseUrl: string;
  /**
   * The operations that arrive together share one look at the armed faults, and the memberships asked together one
   * statement (store/readBatcher.ts): on the memberships of a user, the pool's send of each statement was a large
   * share of the API's time. Each look still starts after its call did, so a fault armed before a call is seen by it.
   */
  readonly #armedFaultSteps = new ReadBatcher<'faults', Set<string | null>>(async () => new Map([['faults', await armedFaultSteps(await nativePool(this.#orm))]]));
  readonly #organizationsOfUsers = new ReadBatcher<string, UserOrganizationRow[]>(async (userIds) => membershipsOfUsers(await nativePool(this.#orm), userIds));

  constructor(orm: Orm, publicBaseUrl: string) {
    this.#orm = orm;
    this.#actionTokenUrl = `${publicBaseUrl.replace(/\/+$/, '')}/idp-sim/login-actions/action-token?key=`;
    this.#publicBaseUrl = publicBaseUrl;
  }

  ensureOrganization(tenant: TenantRef): Promise<{ organizationId: string }> {
    return this.#run('organization', { slugs: [tenant.slug] }, async (sql) => {
      const existing = await organizationOfTenant(sql, tenant.tenantId);
      if (existing) return { organizationId: existing };
      const inserted = await insertOrganization(sql, { name: tenant.name, alias: tenant.slug, tenantId: tenant.tenantId });
      if (inserted) return { organizationId: inserted };
      // The name or alias is taken: by a concurrent attempt for this same tenant (reuse it), or by someone else.
      const raced = await organizationOfTenant(sql, tenant.tenantId);
      if (raced) return { organizationId: raced };
      throw new IdpError('organization_exists', `an organization with name "${tenant.name}" or alias "${tenant.slug}" already exists`, 409);
    });
  }

  ensureUser(tenant: TenantRef, email: string, name: string | undefined): Promise<{ userId: string }> {
    const address = email.trim().toLowerCase();
    return this.#run('user', { slugs: [tenant.slug] }, async (sql) => {
      const existing = await userFor(sql, tenant.tenantId, address);
      if (existing) return { userId: existing };
      const [firstName, ...rest] = (name ?? '').trim().split(/\s+/);
      const inserted = await insertUser(sql, {
        address,
        firstName: firstName || null,
        lastName: rest.join(' ') || null,
        tenantId: tenant.tenantId,
        realmRoles: [IT_ADMIN_ROLE],
        requiredActions: INVITE_ACTIONS,
      });
      if (inserted) return { userId: inserted };
      const raced = await userFor(sql, tenant.tenantId, address);
      if (raced) return { userId: raced };
      throw new IdpError('user_exists', `a user with username or e-mail ${address} already exists`, 409);
    });
  }

  ensureMembership(organizationId: string, userId: string): Promise<void> {
    return this.#run('membership', { subject: subject({ organizationId }) }, async (sql) => {
      if (!UUID.test(organizationId) || !UUID.test(userId)) throw notFound('organization or user');
      if (!(await addMembership(sql, organizationId, userId))) throw notFound('organization or user');
    });
  }

  sendInvite(userId: string, link?: InviteLink): Promise<{ inviteUrl: string }> {
    return this.#run('invite', { subject: subject({ userId }) }, async (sql) => {
      if (!UUID.test(userId)) throw notFound('user');
      const actionUrl = this.#actionTokenUrl + randomBytes(32).toString('base64url');
      const sent = await insertEmail(sql, {
        userId,
        subject: INVITE_SUBJECT,
        actions: INVITE_ACTIONS,
        actionUrl,
        invitationId: link?.invitationId ?? null,
        linkNonce: link?.nonce ?? null,
        delivered: link?.sendEmail ?? true,
      });
      if (!sent) throw notFound('user');
      return { inviteUrl: sent };
    });
  }

  ensureInvitedUser(tenant: TenantRef, email: string): Promise<{ userId: string }> {
    const address = email.trim().toLowerCase();
    return this.#run('user', { slugs: [tenant.slug] }, async (sql) => {
      const existing = await userWithAddress(sql, address);
      if (existing) return { userId: existing };
      const inserted = await insertUser(sql, { address, firstName: null, lastName: null, tenantId: tenant.tenantId, realmRoles: [], requiredActions: INVITE_ACTIONS });
      if (inserted) return { userId: inserted };
      // A concurrent send made the same user first.
      const raced = await userWithAddress(sql, address);
      if (raced) return { userId: raced };
      throw new IdpError('unavailable', `the user ${address} could neither be found nor made`, 503);
    });
  }

  ensureDirectoryUser(tenant: TenantRef, email: string, name: string): Promise<{ userId: string; created: boolean }> {
    const address = email.trim().toLowerCase();
    return this.#run('user', { slugs: [tenant.slug] }, async (sql) => {
      const existing = await userWithAddress(sql, address);
      if (existing) return { userId: existing, created: false };
      const [firstName, ...rest] = name.trim().split(/\s+/);
      const inserted = await insertUser(sql, { address, firstName: firstName || null, lastName: rest.join(' ') || null, tenantId: tenant.tenantId, realmRoles: [], requiredActions: [] });
      if (inserted) return { userId: inserted, created: true };
      const raced = await userWithAddress(sql, address);
      if (raced) return { userId: raced, created: false };
      throw new IdpError('unavailable', `the user ${address} could neither be found nor made`, 503);
    });
  }

  setUserEnabled(userId: string, enabled: boolean): Promise<void> {
    return this.#run('find_user', { subject: subject({ userId }) }, async (sql) => {
      if (!UUID.test(userId) || !(await setEnabled(sql, userId, enabled))) throw notFound('user');
    });
  }

  /**
   * Completes an action link with a password (the page's form posted): an account waiting for its first password
   * sets it (its required actions cleared); any other account signs in with it, and a password that is not its own
   * is `refused` with nothing changed (SPEC-EXTENSIONS §13). Answers the user and the invitation the link was made
   * for, or undefined for a link it never issued.
   */
  async completeActionToken(key: string, password: string): Promise<CompletedActionLink | 'refused' | undefined> {
    const sql = await nativePool(this.#orm);
    const row = await actionLink(sql, this.#actionTokenUrl + key);
    if (!row) return undefined;
    const completed = { userId: row.user_id, invitationId: row.invitation_id, nonce: row.link_nonce };
    if (asksOf(row) === 'set_password' && (await setFirstPassword(sql, row.user_id, await hashPassword(password)))) return completed;
    // A sign-in (also when another link set the first password in between): the enabled account, its password now.
    return (await this.#passwordOf(await credentialsOfAddress(sql, row.email), password)) === row.user_id ? completed : 'refused';
  }

  /** The simulated provider's sign-in: the enabled user holding the address, when the password is its own. */
  async signIn(address: string, password: string): Promise<string | undefined> {
    return this.#passwordOf(await credentialsOfAddress(await nativePool(this.#orm), address.trim().toLowerCase()), password);
  }

  async #passwordOf(account: { id: string; password_hash: string | null } | undefined, password: string): Promise<string | undefined> {
    return account?.password_hash && (await passwordMatches(password, account.password_hash)) ? account.id : undefined;
  }

  findAccount(by: { address: string } | { userId: string }): Promise<Account | undefined> {
    return this.#run('find_user', { subject: subject('userId' in by ? { userId: by.userId } : {}) }, async (sql) => {
      if ('userId' in by && !UUID.test(by.userId)) return undefined;
      const row = await accountRow(sql, 'userId' in by ? { userId: by.userId } : { address: by.address.trim().toLowerCase() });
      if (!row) return undefined;
      return { userId: row.id, email: row.email, name: [row.first_name, row.last_name].filter(Boolean).join(' '), homeTenantId: row.home_tenant_id };
    });
  }

  findUser(userId: string): Promise<DirectoryUser | undefined> {
    return this.#run('find_user', { subject: subject({ userId }) }, async (sql) => {
      if (!UUID.test(userId)) return undefined;
      const row = await userById(sql, userId);
      if (!row) return undefined;
      return { userId, email: row.email, name: [row.first_name, row.last_name].filter(Boolean).join(' ') };
    });
  }

  setOrganizationDomains(tenant: TenantRef, domains: readonly string[]): Promise<void> {
    return this.#run('organization', { slugs: [tenant.slug] }, async (sql) => {
      const organizationId = await organizationOfTenant(sql, tenant.tenantId);
      if (!organizationId) throw notFound('organization');
      await replaceOrganizationDomains(sql, organizationId, domains.map((name) => ({ name, verified: true })));
    });
  }

  putSsoProvider(tenant: TenantRef, provider: SsoProvider): Promise<void> {
    return this.#run('organization', { slugs: [tenant.slug] }, async (sql) => {
      const organizationId = await organizationOfTenant(sql, tenant.tenantId);
      if (!organizationId) throw notFound('organization');
      // The simulator keeps what Keycloak would show an administrator: not an OIDC client's secret.
      const { alias, enabled, ...config } = provider;
      if (config.protocol === 'oidc') {
        const { clientSecret: _secret, ...shown } = config;
        await putIdentityProvider(sql, { alias, organizationId, enabled, config: shown });
      } else await putIdentityProvider(sql, { alias, organizationId, enabled, config });
    });
  }

  ssoServiceProvider(alias: string): SsoServiceProvider {
    return simulatedServiceProvider(this.#publicBaseUrl, alias);
  }

  /** The service provider a SAML identity provider of the simulator is (its SP metadata names them); undefined for any other alias. */
  async samlServiceProvider(alias: string): Promise<SsoServiceProvider | undefined> {
    // A read of what the simulator holds, as Keycloak's public descriptor is: no injected fault applies to it.
    const protocol = await identityProviderProtocol(await nativePool(this.#orm), alias);
    return protocol === 'saml' ? this.ssoServiceProvider(alias) : undefined;
  }

  /**
   * The simulator has no brokered sign-in (no federated identities): a user of its own that exists is taken at its
   * word, for an identity provider it holds (docs/decisions.md, single sign-on).
   */
  signedInThrough(userId: string, alias: string): Promise<boolean> {
    return this.#run('find_user', { subject: subject({ userId }) }, async (sql) => UUID.test(userId) && (await userById(sql, userId)) !== undefined && (await identityProviderExists(sql, alias)));
  }

  removeSsoProvider(alias: string): Promise<void> {
    return this.#run('organization', {}, (sql) => deleteIdentityProvider(sql, alias));
  }

  listTenantUserIds(tenantId: string): Promise<string[]> {
    return this.#run('list_users', { subject: subject({ tenantId }) }, (sql) => memberIdsOfTenant(sql, tenantId));
  }

  removeMembership(organizationId: string, userId: string): Promise<void> {
    return this.#run('remove_membership', { subject: subject({ organizationId }) }, async (sql) => {
      if (UUID.test(organizationId) && UUID.test(userId)) await deleteMembership(sql, organizationId, userId);
    });
  }

  pushMembership(userId: string, tenantSlug: string, membership: PushedMembership | null): Promise<void> {
    return this.#run('push_claims', { slugs: [tenantSlug] }, async (sql) => {
      for (let attempt = 1; attempt <= PUSH_ATTEMPTS; attempt++) {
        const before = UUID.test(userId) ? await userAttributes(sql, userId) : undefined;
        if (!before) {
          // Nothing to remove from a user that is not there; a value to write needs one.
          if (membership) throw notFound('user');
          return;
        }
        const after = userAttributesWith(before, tenantSlug, membership);
        if (sameAttributes(before, after)) return;
        // Written only over the attributes it was computed from: a concurrent push of another tenant is not lost.
        if (await replaceUserAttributes(sql, userId, before, after)) return;
      }
      throw new IdpError('unavailable', `user ${userId} kept changing while its membership was pushed`, 503);
    });
  }

  memberships(userId: string): Promise<IdpMembership[]> {
    return this.#run('memberships', { subject: subject({ userId }) }, async () => {
      if (!UUID.test(userId)) return [];
      return ((await this.#organizationsOfUsers.load(userId)) ?? []).map((row) => {
        const membership: IdpMembership = {
          organizationId: row.id,
          alias: row.alias,
          name: row.name,
          orgRoles: row.user_attributes.org_roles ?? [],
          attributes: row.user_attributes,
        };
        const tenantId = row.org_attributes.tenant_id?.[0];
        if (tenantId) membership.tenantId = tenantId;
        return membership;
      });
    });
  }

  /**
   * What the simulated provider's action link leads to: the pending required actions of the invited user and what the
   * link asks of it (a first password, or a sign-in: then no action), or undefined for a link it never issued
   * (Keycloak shows an "invalid or expired" page then).
   */
  async describeActionToken(
    key: string,
  ): Promise<{ email: string; asks: InviteLinkAsks; requiredActions: string[]; actions: string[]; invitationId: string | null; nonce: string | null } | undefined> {
    const row = await actionLink(await nativePool(this.#orm), this.#actionTokenUrl + key);
    if (!row) return undefined;
    const asks = asksOf(row);
    return { email: row.email, asks, requiredActions: row.required_actions, actions: asks === 'sign_in' ? [] : row.actions, invitationId: row.invitation_id, nonce: row.link_nonce };
  }

  ping(): Promise<void> {
    return this.#run('ping', {}, pingTables);
  }

  /**
   * Raises an injected fault matching the step and the tenants the operation acts for (named by their slugs, or by
   * an organization, user or tenant whose organizations' aliases are the slugs), then runs the operation.
   */
  async #run<T>(
    step: FaultStep,
    actsFor: FaultScope,
    operation: (sql: Sql) => Promise<T>,
  ): Promise<T> {
    try {
      const sql = await nativePool(this.#orm);
      const isProvisioningStep = (PROVISIONING_STEPS as readonly string[]).includes(step);
      const armed = await this.#armedFaultSteps.load('faults');
      const fault = armed?.has(step) || (isProvisioningStep && armed?.has(null)) ? await takeFault(sql, step, isProvisioningStep, actsFor) : undefined;
      if (fault) {
        const response = FAULT_RESPONSES[fault];
        throw new IdpError(fault, `${response.message} (simulated fault at step ${step})`, response.status);
      }
      return await operation(sql);
    } catch (error) {
      if (error instanceof IdpError) throw error;
      const unavailable = new IdpError('unavailable', 'simulated identity provider store is unreachable', 503);
      unavailable.cause = error;
      throw unavailable;
    }
  }
}

/**
 * This tenant's user with that address; a user holding the address as e-mail or username that is not exactly
 * that is someone else's, which is user_exists.
 */
async function userFor(sql: Sql, tenantId: string, address: string): Promise<string | undefined> {
  const rows = await usersWithAddress(sql, tenantId, address);
  if (rows.length === 0) return undefined;
  const [row] = rows;
  if (rows.length === 1 && row?.owned) return row.id;
  throw new IdpError('user_exists', `a user with username or e-mail ${address} already exists`, 409);
}

/** A completed action link: its user, and the invitation and secret it was made with (null for a bare invite). */
export interface CompletedActionLink {
  userId: string;
  invitationId: string | null;
  nonce: string | null;
}

const asksOf = (row: ActionLinkRow): InviteLinkAsks => inviteLinkAsks({ hasCredentials: row.password_hash !== null, requiredActions: row.required_actions });

/** Ids that are not UUIDs match nothing (and would be an error in a uuid comparison). */
const subject = (s: { organizationId?: string; userId?: string; tenantId?: string }) => ({
  organizationId: s.organizationId && UUID.test(s.organizationId) ? s.organizationId : null,
  userId: s.userId && UUID.test(s.userId) ? s.userId : null,
  ...(s.tenantId ? { tenantId: s.tenantId } : {}),
});
