/**
 * The identity provider port against Keycloak 26 with Organizations enabled. Admin calls go through the official
 * @keycloak/keycloak-admin-client; only two exchanges use fetch directly:
 * - the token request (keycloakAdminToken.ts): the client's auth() decodes JWT expiry itself, refreshes with a
 *   refresh_token grant and shares nothing between concurrent callers; we need expires_in, an early refresh and one
 *   in-flight request, so the client gets our token through registerTokenProvider instead;
 * - the invite, because it is the project's realm-resource extension, which the client does not know.
 */
import KeycloakAdminClient, { fetchWithError } from '@keycloak/keycloak-admin-client';
import type { Logger } from '../platform/logger.ts';
import type { Account, DirectoryUser } from '../domain/members/userDirectory.ts';
import {
  IdpError,
  INVITE_ACTIONS,
  IT_ADMIN_ROLE,
  sameAttributes,
  userAttributesWith,
  type IdentityProvider,
  type IdpMembership,
  type InviteLink,
  type OidcSsoProvider,
  type SamlSsoProvider,
  type SsoProvider,
  type PushedMembership,
  type TenantRef,
} from './identityProvider.ts';
import { KeycloakAdminToken } from './keycloakAdminToken.ts';
import { driftedPolicy, keycloakSamlRepresentation, unheldSettings } from './keycloakSamlProvider.ts';
import { statusOf, toIdpError } from './keycloakErrors.ts';
import type { KeycloakSettings } from './keycloakSettings.ts';
import { brokerServiceProvider, type SsoServiceProvider } from '../domain/sso/ssoServiceProvider.ts';

/** Rounds of read, merge and re-read when the user keeps changing under a membership push; then it is retried later. */
const PUSH_ATTEMPTS = 3;

const MEMBERS_PAGE_SIZE = 100;
/**
 * Keycloak 26.0 to 26.3 refuse an organization without a domain (optional since 26.4). Tenants have no domain of
 * their own, so each organization gets one under the reserved .invalid TLD (RFC 2606): it satisfies the check, is
 * unique per slug, and can never match a real e-mail address in Keycloak's domain-based organization login.
 */
const PLACEHOLDER_DOMAIN_SUFFIX = 'tenants.invalid';
const placeholderDomainOf = (tenant: TenantRef) => ({ name: `${tenant.slug}.${PLACEHOLDER_DOMAIN_SUFFIX}`, verified: false });
/**
 * The realm's broker flows of SSO connections (keycloak/realm-tenant-registry.json): the registry's e-mail check before
 * an account is made or linked and at every later sign-in. A realm without them refuses the identity provider.
 */
const SSO_FIRST_BROKER_LOGIN_FLOW = 'tenant-registry sso first broker login';
const SSO_POST_BROKER_LOGIN_FLOW = 'tenant-registry sso post broker login';

export type KeycloakIdentityProviderOptions = {
  /** Clock of the token cache (ms since the epoch). */
  now?: () => number;
  log?: Logger;
};

export class KeycloakIdentityProvider implements IdentityProvider {
  readonly #settings: KeycloakSettings;
  readonly #token: KeycloakAdminToken;
  readonly #client: KeycloakAdminClient;
  readonly #log: Logger | undefined;

  constructor(settings: KeycloakSettings, options: KeycloakIdentityProviderOptions = {}) {
    this.#settings = settings;
    this.#log = options.log;
    this.#token = new KeycloakAdminToken(settings, options);
    this.#client = new KeycloakAdminClient({
      baseUrl: settings.url,
      realmName: settings.realm,
      timeout: settings.httpTimeoutMs,
    });
    this.#client.registerTokenProvider({ getAccessToken: () => this.#token.get() });
  }

  async ensureOrganization(tenant: TenantRef): Promise<{ organizationId: string }> {
    const existing = await this.#organizationIdOf(tenant.tenantId);
    if (existing) return { organizationId: existing };
    try {
      const { id } = await this.#call('create organization', () =>
        this.#client.organizations.create({
          name: tenant.name,
          alias: tenant.slug,
          enabled: true,
          domains: [placeholderDomainOf(tenant)],
          attributes: { tenant_id: [tenant.tenantId] },
        }),
      );
      return { organizationId: id };
    } catch (err) {
      if (statusOf(err) !== 409) throw err;
      // A concurrent attempt for this tenant may have won the race: then its organization is ours.
      const winner = await this.#organizationIdOf(tenant.tenantId);
      if (winner) return { organizationId: winner };
      throw new IdpError(
        'organization_exists',
        `Keycloak already has an organization named "${tenant.name}" or with alias "${tenant.slug}" that is not tenant ${tenant.tenantId}'s`,
        409,
      );
    }
  }

  async ensureUser(tenant: TenantRef, email: string, name: string | undefined): Promise<{ userId: string }> {
    const userId = (await this.#tenantUserId(tenant, email)) ?? (await this.#createUser(tenant, email, name));
    // Also on reuse: an earlier attempt may have stopped between creating the user and granting the role.
    await this.#grantItAdmin(userId);
    return { userId };
  }

  async ensureInvitedUser(tenant: TenantRef, email: string): Promise<{ userId: string }> {
    const { userId } = await this.#userOfAddress(tenant, email, '', true);
    return { userId };
  }

  ensureDirectoryUser(tenant: TenantRef, email: string, name: string): Promise<{ userId: string; created: boolean }> {
    return this.#userOfAddress(tenant, email, name, false);
  }

  /**
   * The user holding the address, whoever's it is, or a new one with this tenant as its home: an invited one with the
   * invite's required actions and its address unverified, a directory's verified and without actions (it signs in
   * through the customer's provider). A user made meanwhile (Keycloak's 409) is the one.
   */
  async #userOfAddress(tenant: TenantRef, email: string, name: string, invited: boolean): Promise<{ userId: string; created: boolean }> {
    const existing = await this.#userIdWithAddress(email);
    if (existing) return { userId: existing, created: false };
    try {
      return { userId: await this.#newUser(tenant, email, name, invited), created: true };
    } catch (err) {
      if (statusOf(err) !== 409) throw err;
      const raced = await this.#userIdWithAddress(email);
      if (raced) return { userId: raced, created: false };
      throw err;
    }
  }

  async setUserEnabled(userId: string, enabled: boolean): Promise<void> {
    const user = await this.#readUser(userId, true);
    if (user?.enabled !== enabled) await this.#call('update user enabled', () => this.#client.users.update({ id: userId }, { ...user, enabled }));
    // Its sessions end with it, so no refresh token of a disabled user outlives the step (run again on a retry).
    if (!enabled) await this.#call('sign user out', () => this.#client.users.logout({ id: userId }));
  }

  async ensureMembership(organizationId: string, userId: string): Promise<void> {
    try {
      // The client sends the bare id as the body; every 26.x accepts that, the quoted JSON string only since keycloak#34401.
      await this.#call('add organization member', () => this.#client.organizations.addMember({ orgId: organizationId, userId }));
    } catch (err) {
      if (statusOf(err) !== 409) throw err; // 409: already a member
    }
  }

  async removeMembership(organizationId: string, userId: string): Promise<void> {
    try {
      await this.#call('remove organization member', () => this.#client.organizations.delMember({ orgId: organizationId, userId }));
    } catch (err) {
      if (statusOf(err) !== 404) throw err; // 404: not a member (any more), or no such user or organization
    }
  }

  /**
   * The extension's invite. With an invitation's id, nonce, send_email and organization, the extension makes the link
   * the registry checks whenever it is opened, and mails an account that exists already a sign-in to accept.
   */
  async sendInvite(userId: string, link?: InviteLink): Promise<{ inviteUrl: string }> {
    const url = `${this.#settings.url}/realms/${encodeURIComponent(this.#settings.realm)}/tenant-registry/invite`;
    const body = {
      ...(link ? { invitation_id: link.invitationId, nonce: link.nonce, send_email: link.sendEmail, organization: link.organization } : {}),
      user_id: userId,
      actions: INVITE_ACTIONS,
      lifespan: this.#settings.inviteLifespanSeconds,
      client_id: this.#settings.inviteClientId,
      redirect_uri: this.#settings.inviteRedirectUri,
    };
    let answer: unknown;
    try {
      answer = await this.#call('send invite', async (token) => {
        const response = await fetchWithError(url, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify(body),
          redirect: 'error',
          signal: AbortSignal.timeout(this.#settings.httpTimeoutMs),
        });
        return response.json();
      });
    } catch (err) {
      // Without the extension there is no way to get the action link: failing beats an invite_url-less success.
      if (statusOf(err) === 404) throw new IdpError('rejected', 'the tenant-registry invite extension is not installed in the realm', 404);
      throw err;
    }
    const actionLink = (answer as { link?: unknown } | null)?.link;
    if (typeof actionLink !== 'string' || !/^https?:\/\//.test(actionLink)) {
      throw new IdpError('rejected', 'the tenant-registry invite extension answered without an action link');
    }
    return { inviteUrl: actionLink };
  }

  async findAccount(by: { address: string } | { userId: string }): Promise<Account | undefined> {
    const userId = 'userId' in by ? by.userId : await this.#userIdWithAddress(by.address.trim().toLowerCase());
    const user = userId ? await this.#readUser(userId, false) : undefined;
    if (!user?.id) return undefined;
    const name = [user.firstName, user.lastName].filter(Boolean).join(' ');
    return { userId: user.id, email: user.email ?? user.username ?? '', name, homeTenantId: attributeMap(user.attributes).tenant_id?.[0] ?? null };
  }

  async findUser(userId: string): Promise<DirectoryUser | undefined> {
    const user = await this.#readUser(userId, false);
    if (!user?.id) return undefined;
    return { userId: user.id, email: user.email ?? user.username ?? '', name: [user.firstName, user.lastName].filter(Boolean).join(' ') };
  }

  /**
   * Keycloak keeps an organization's domains in its representation: read it, replace the domains (each verified),
   * write it back; without a verified one the organization keeps its placeholder, as Keycloak wants one at least. A
   * name another organization holds is Keycloak's 409, a `rejected` failure.
   */
  async setOrganizationDomains(tenant: TenantRef, domains: readonly string[]): Promise<void> {
    const organizationId = await this.#organizationIdOf(tenant.tenantId);
    if (!organizationId) throw new IdpError('rejected', `Keycloak has no organization of tenant ${tenant.tenantId}`, 404);
    const organization = await this.#call('read organization', () => this.#client.organizations.findOne({ id: organizationId }));
    const verified = domains.map((name) => ({ name, verified: true }));
    const next = { ...organization, domains: verified.length > 0 ? verified : [placeholderDomainOf(tenant)] };
    await this.#call('update organization domains', () => this.#client.organizations.updateById({ id: organizationId }, next));
  }

  /**
   * Makes the connection's identity provider match it and links it to the tenant's organization: an OIDC or a SAML
   * one as its protocol says.
   */
  async putSsoProvider(tenant: TenantRef, provider: SsoProvider): Promise<void> {
    const organizationId = await this.#organizationIdOf(tenant.tenantId);
    if (!organizationId) throw new IdpError('rejected', `Keycloak has no organization of tenant ${tenant.tenantId}`, 404);
    const drifted = provider.protocol === 'saml' ? await this.#putSamlProvider(tenant, provider) : await this.#putOidcProvider(tenant, provider);
    const linked = await this.#call('list organization identity providers', () => this.#client.organizations.listIdentityProviders({ orgId: organizationId }));
    if (!linked.some((idp) => idp.alias === provider.alias)) {
      await this.#call('link identity provider', () => this.#client.organizations.linkIdp({ orgId: organizationId, alias: provider.alias }));
    }
    // Put right above; still a failed sync, so the tenant's audit log says a setting had been changed behind its back.
    if (drifted.length > 0) {
      throw new IdpError('rejected', `identity provider ${provider.alias} had been changed outside the registry (${drifted.join(', ')}); its settings were put back`);
    }
  }

  /**
   * The connection as a Keycloak OIDC identity provider (hidden on the login page; PKCE; signatures checked with the
   * issuer's keys), bound to the organization's first domain with redirect when an e-mail matches it: Keycloak 26
   * binds an organization's identity provider to one domain (docs/decisions.md). Its e-mail is not trusted (the holder
   * verifies it) and its sign-ins go through the realm's SSO broker flows. Answers no drift: only SAML's is checked.
   */
  async #putOidcProvider(tenant: TenantRef, provider: OidcSsoProvider): Promise<string[]> {
    const representation = {
      alias: provider.alias,
      displayName: `${tenant.name} SSO`,
      providerId: 'oidc',
      enabled: provider.enabled,
      hideOnLogin: true,
      trustEmail: false,
      firstBrokerLoginFlowAlias: SSO_FIRST_BROKER_LOGIN_FLOW,
      postBrokerLoginFlowAlias: SSO_POST_BROKER_LOGIN_FLOW,
      config: {
        issuer: provider.issuer,
        authorizationUrl: provider.authorizationUrl,
        tokenUrl: provider.tokenUrl,
        jwksUrl: provider.jwksUrl,
        ...(provider.userInfoUrl ? { userInfoUrl: provider.userInfoUrl } : {}),
        clientId: provider.clientId,
        clientSecret: provider.clientSecret,
        clientAuthMethod: 'client_secret_post',
        validateSignature: 'true',
        useJwksUrl: 'true',
        pkceEnabled: 'true',
        pkceMethod: 'S256',
        defaultScope: 'openid email profile',
        // The address typed at the organization's login goes along, so the person does not type it twice.
        loginHint: 'true',
        syncMode: 'IMPORT',
        ...(provider.domains[0] ? { 'kc.org.domain': provider.domains[0], 'kc.org.broker.redirect.mode.email-matches': 'true' } : {}),
      },
    };
    const existing = await this.#call('read identity provider', () => this.#client.identityProviders.findOne({ alias: provider.alias }));
    if (existing) await this.#call('update identity provider', () => this.#client.identityProviders.update({ alias: provider.alias }, { ...existing, ...representation }));
    else await this.#call('create identity provider', () => this.#client.identityProviders.create(representation));
    return [];
  }

  /**
   * The connection as the extension's SAML identity provider, secure by default (keycloakSamlProvider.ts), then read
   * back: a setting Keycloak did not keep as written fails the sync. Answers the policy settings an existing one held
   * otherwise before this write (drift), which the write has put right.
   */
  async #putSamlProvider(tenant: TenantRef, provider: SamlSsoProvider): Promise<string[]> {
    const representation = keycloakSamlRepresentation(tenant, provider, { firstBrokerLogin: SSO_FIRST_BROKER_LOGIN_FLOW, postBrokerLogin: SSO_POST_BROKER_LOGIN_FLOW });
    const existing = await this.#call('read identity provider', () => this.#client.identityProviders.findOne({ alias: provider.alias }));
    const drifted = existing ? driftedPolicy(existing, representation) : [];
    // Keycloak keeps an identity provider's type for good: one of another type is made again.
    if (existing && existing.providerId !== representation.providerId) {
      await this.#call('delete identity provider', () => this.#client.identityProviders.del({ alias: provider.alias }));
    }
    if (existing && existing.providerId === representation.providerId) {
      await this.#call('update identity provider', () => this.#client.identityProviders.update({ alias: provider.alias }, { ...existing, ...representation }));
    } else {
      await this.#call('create identity provider', () => this.#client.identityProviders.create(representation));
    }
    const stored = await this.#call('read identity provider back', () => this.#client.identityProviders.findOne({ alias: provider.alias }));
    const unheld = stored ? unheldSettings(stored, representation) : ['alias'];
    if (unheld.length > 0) throw new IdpError('rejected', `Keycloak did not keep identity provider ${provider.alias} as written (${unheld.join(', ')})`);
    return drifted;
  }

  /** Keycloak's broker endpoints of the alias in the realm (the SAML entity id is its descriptor's URL). */
  ssoServiceProvider(alias: string): SsoServiceProvider {
    return brokerServiceProvider(`${this.#settings.url}/realms/${encodeURIComponent(this.#settings.realm)}/broker/${encodeURIComponent(alias)}`);
  }

  async signedInThrough(userId: string, alias: string): Promise<boolean> {
    const links = await this.#call('read federated identities', () => this.#client.users.listFederatedIdentities({ id: userId })).catch((err: unknown) => {
      if (statusOf(err) === 404) return [];
      throw err;
    });
    return links.some((link) => link.identityProvider === alias);
  }

  async removeSsoProvider(alias: string): Promise<void> {
    try {
      await this.#call('delete identity provider', () => this.#client.identityProviders.del({ alias }));
    } catch (err) {
      if (statusOf(err) !== 404) throw err;
    }
  }

  async listTenantUserIds(tenantId: string): Promise<string[]> {
    const organizationId = await this.#organizationIdOf(tenantId);
    if (!organizationId) return [];
    const ids: string[] = [];
    for (let first = 0; ; first += MEMBERS_PAGE_SIZE) {
      const page = await this.#call('list organization members', () =>
        this.#client.organizations.listMembers({ orgId: organizationId, first, max: MEMBERS_PAGE_SIZE }),
      );
      ids.push(...page.flatMap((member) => (member.id ? [member.id] : [])));
      if (page.length < MEMBERS_PAGE_SIZE) return ids;
    }
  }

  /**
   * Writes this tenant's membership attributes and nothing else (userAttributesWith). Keycloak's admin API has no
   * per-attribute update: the narrowest write is a PUT of the user as just read with only those attributes changed
   * (a PUT replaces the attribute map wholesale, so the user's other attributes and other tenants' values go back as
   * they were). An unchanged membership writes nothing. The user is read again right before the write; when someone
   * changed it in between (an administrator's edit, another tenant's push), the change starts over from the new state.
   */
  async pushMembership(userId: string, tenantSlug: string, membership: PushedMembership | null): Promise<void> {
    for (let attempt = 1; attempt <= PUSH_ATTEMPTS; attempt++) {
      const user = await this.#readUser(userId, membership !== null);
      if (!user) return;
      const before = attributeMap(user.attributes);
      const attributes = userAttributesWith(before, tenantSlug, membership);
      if (sameAttributes(before, attributes)) return;
      const current = await this.#readUser(userId, membership !== null);
      if (!current) return;
      if (JSON.stringify(current) !== JSON.stringify(user)) continue;
      // Without requiredActions, which Keycloak leaves as they are when absent: a push racing the user's own
      // completion of an action (an invitation's password) must not give the action back.
      const { requiredActions: _untouched, ...rest } = current;
      await this.#call('update user attributes', () => this.#client.users.update({ id: userId }, { ...rest, attributes }));
      return;
    }
    throw new IdpError('unavailable', `user ${userId} kept changing while its membership was pushed`);
  }

  async memberships(userId: string): Promise<IdpMembership[]> {
    const user = await this.#call('read user', () => this.#client.users.findOne({ id: userId }));
    if (!user) return [];
    // The full representation carries the attributes (tenant_id); the client's typing lacks briefRepresentation.
    const query = { userId, briefRepresentation: false };
    const organizations = await this.#call('list user organizations', () =>
      this.#client.organizations.memberOrganizations(query),
    ).catch((err: unknown) => {
      if (statusOf(err) === 404) return []; // the user was deleted in between
      throw err;
    });
    const attributes = attributeMap(user.attributes);
    const orgRoles = (attributes.org_roles ?? []).flatMap((value) => value.split(',')).map((role) => role.trim()).filter(Boolean);
    return organizations.flatMap((organization) =>
      organization.id
        ? [{
            organizationId: organization.id,
            tenantId: organization.attributes?.tenant_id?.[0],
            alias: organization.alias ?? '',
            name: organization.name ?? '',
            orgRoles,
            attributes,
          }]
        : [],
    );
  }

  async ping(): Promise<void> {
    // Keycloak may blank parts of the body for a non-master realm's service account; any 2xx means up.
    await this.#call('read server info', () => this.#client.serverInfo.find());
  }

  /**
   * Runs one admin call with the current token. A 401 means Keycloak no longer takes that token: it is dropped, a
   * fresh one fetched and the call repeated once; a second 401 is final (unauthorized). Every failure leaves here as
   * an IdpError. Client calls read the token through the registered provider, which hands out the same cached token.
   */
  async #call<T>(action: string, operation: (token: string) => Promise<T>): Promise<T> {
    const token = await this.#token.get();
    try {
      return await operation(token);
    } catch (err) {
      if (statusOf(err) !== 401) throw toIdpError(err, action);
      this.#log?.info({ action }, 'Keycloak refused the admin token; refreshing it and retrying once');
      this.#token.invalidate(token);
    }
    const fresh = await this.#token.get();
    try {
      return await operation(fresh);
    } catch (err) {
      throw toIdpError(err, action);
    }
  }

  /** The user; one Keycloak does not have is `rejected` (404) when `required`, else undefined. */
  async #readUser(userId: string, required: boolean) {
    const user = await this.#call('read user', () => this.#client.users.findOne({ id: userId })).catch((err: unknown) => {
      // Keycloak answers 404 for an id it does not have, whatever its shape.
      if (statusOf(err) === 404) return undefined;
      throw err;
    });
    if (!user && required) throw new IdpError('rejected', `Keycloak has no user ${userId}`, 404);
    return user;
  }

  async #organizationIdOf(tenantId: string): Promise<string | undefined> {
    // Keycloak's search matches name or domain, never alias, hence the tenant_id attribute and q=.
    const found = await this.#call('search organizations', () =>
      this.#client.organizations.find({ q: `tenant_id:${tenantId}`, exact: true, max: 1 }),
    );
    return found[0]?.id;
  }

  /** The user holding this e-mail (as e-mail or username), whoever's it is. */
  async #userIdWithAddress(email: string): Promise<string | undefined> {
    const byEmail = await this.#call('search users', () => this.#client.users.find({ email, exact: true }));
    const [user] = byEmail.length > 0 ? byEmail : await this.#call('search users', () => this.#client.users.find({ username: email, exact: true }));
    return user?.id;
  }

  /** The user holding this e-mail (as e-mail or username) if it is this tenant's; user_exists if it is anyone else's. */
  async #tenantUserId(tenant: TenantRef, email: string): Promise<string | undefined> {
    const byEmail = await this.#call('search users', () => this.#client.users.find({ email, exact: true }));
    const [user] = byEmail.length > 0 ? byEmail : await this.#call('search users', () => this.#client.users.find({ username: email, exact: true }));
    if (!user?.id) return undefined;
    if (attributeMap(user.attributes).tenant_id?.includes(tenant.tenantId)) return user.id;
    throw new IdpError('user_exists', `Keycloak already has a user with this e-mail that is not tenant ${tenant.tenantId}'s`, 409);
  }

  async #createUser(tenant: TenantRef, email: string, name: string | undefined): Promise<string> {
    try {
      return await this.#newUser(tenant, email, name ?? '', true);
    } catch (err) {
      if (statusOf(err) !== 409) throw err;
      const winner = await this.#tenantUserId(tenant, email);
      if (winner) return winner;
      throw new IdpError('user_exists', `Keycloak already has a user with this e-mail or username that is not tenant ${tenant.tenantId}'s`, 409);
    }
  }

  /**
   * A new enabled user with this tenant as its home: invited (the invite's required actions, its address unverified)
   * or a directory's (verified, no actions). Keycloak's 409 is left to the caller, which knows whose the address is.
   */
  async #newUser(tenant: TenantRef, email: string, name: string, invited: boolean): Promise<string> {
    const [firstName, ...rest] = name.trim().split(/\s+/);
    const { id } = await this.#call('create user', () =>
      this.#client.users.create({
        username: email,
        email,
        firstName: firstName || undefined,
        lastName: rest.join(' ') || undefined,
        enabled: true,
        emailVerified: !invited,
        ...(invited ? { requiredActions: INVITE_ACTIONS } : {}),
        attributes: { tenant_id: [tenant.tenantId], tenant_slug: [tenant.slug] },
      }),
    );
    return id;
  }

  async #grantItAdmin(userId: string): Promise<void> {
    const role = await this.#call(`read realm role ${IT_ADMIN_ROLE}`, () => this.#client.roles.findOneByName({ name: IT_ADMIN_ROLE }));
    if (!role?.id || !role.name) {
      throw new IdpError('rejected', `realm ${this.#settings.realm} has no realm role ${IT_ADMIN_ROLE}`, 404);
    }
    const roles = [{ id: role.id, name: role.name }];
    // Granting a role the user already has is a no-op in Keycloak, so a retry needs no check first.
    await this.#call(`grant realm role ${IT_ADMIN_ROLE}`, () => this.#client.users.addRealmRoleMappings({ id: userId, roles }));
  }
}

/** Keycloak attribute values are string lists; anything else is coerced so the merge and reads stay total. */
function attributeMap(raw: Record<string, unknown> | undefined): Record<string, string[]> {
  return Object.fromEntries(
    Object.entries(raw ?? {}).map(([key, value]) => [key, (Array.isArray(value) ? value : [value]).map(String)]),
  );
}
