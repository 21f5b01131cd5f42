import { randomUUID } from 'node:crypto';
import { inspect } from 'node:util';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IdpError, TENANT_MEMBERSHIPS_ATTRIBUTE, type PushedMembership, type TenantRef } from '../../identityProvider/identityProvider.ts';
import type { IdpFailureKind } from '../../domain/provisioning/provisioningVocabulary.ts';
import { kindForStatus } from '../../identityProvider/keycloakErrors.ts';
import {
  KeycloakIdentityProvider,
  type KeycloakIdentityProviderOptions,
} from '../../identityProvider/keycloakIdentityProvider.ts';
import { loadKeycloakSettings } from '../../identityProvider/keycloakSettings.ts';
import { startFakeKeycloak, type FakeKeycloak } from '../support/fakeKeycloak.ts';
import { PUSHED_SIGN_IN_DEFAULTS } from '../support/pushedSignInDefaults.ts';

const SECRET = 'kc-secret-7f3a9c-do-not-leak';

let fake: FakeKeycloak;
beforeEach(async () => {
  fake = await startFakeKeycloak({ secret: SECRET });
});
afterEach(() => fake.close());

function envFor(target: FakeKeycloak, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    IDP_ADMIN_URL: target.url,
    IDP_ADMIN_REALM: target.realm,
    IDP_ADMIN_CLIENT_ID: target.clientId,
    IDP_ADMIN_CLIENT_SECRET: SECRET,
    IDP_HTTP_TIMEOUT_MS: '2000',
    ...extra,
  };
}

function providerFor(target: FakeKeycloak, extra: NodeJS.ProcessEnv = {}, options: KeycloakIdentityProviderOptions = {}) {
  const settings = loadKeycloakSettings(envFor(target, extra));
  if (!settings) throw new Error('settings expected');
  return new KeycloakIdentityProvider(settings, options);
}

function tenant(slug = 'acme', name = 'Acme'): TenantRef {
  return { tenantId: randomUUID(), slug, name };
}

async function provision(idp: KeycloakIdentityProvider, ref: TenantRef, email: string) {
  const { organizationId } = await idp.ensureOrganization(ref);
  const { userId } = await idp.ensureUser(ref, email, 'Ada King Lovelace');
  await idp.ensureMembership(organizationId, userId);
  const { inviteUrl } = await idp.sendInvite(userId);
  return { organizationId, userId, inviteUrl };
}

/** One tenant's membership as the actor pushes it. */
function pushed(values: Partial<PushedMembership> & Pick<PushedMembership, 'tenant_id' | 'tenant_slug'>): PushedMembership {
  return { plan: 'pro', tenant_status: 'active', products: [], org_roles: [], permissions: [], membership_status: 'active', ...PUSHED_SIGN_IN_DEFAULTS, ...values };
}

/** The IdpError a promise rejects with (fails the test when it resolves or throws something else). */
async function idpFailure(promise: Promise<unknown>): Promise<IdpError> {
  const err = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(err).toBeInstanceOf(IdpError);
  return err as IdpError;
}

describe('KeycloakIdentityProvider against a Keycloak-speaking peer', () => {
  it('provisions organization, IT_ADMIN user, membership and invite in one sequence', async () => {
    const idp = providerFor(fake, {
      IDP_INVITE_CLIENT_ID: 'tenant-portal',
      IDP_INVITE_REDIRECT_URI: 'https://portal.example.com/welcome',
      IDP_INVITE_LIFESPAN_SECONDS: '86400',
    });
    const ref = tenant();
    const { organizationId, userId, inviteUrl } = await provision(idp, ref, 'Ada@Example.com');

    expect(fake.organizations.get(organizationId)).toMatchObject({
      name: 'Acme',
      alias: 'acme',
      attributes: { tenant_id: [ref.tenantId] },
      domains: [{ name: 'acme.tenants.invalid', verified: false }],
    });
    const user = fake.users.get(userId);
    expect(user).toMatchObject({
      username: 'ada@example.com',
      email: 'ada@example.com',
      firstName: 'Ada',
      lastName: 'King Lovelace',
      enabled: true,
      emailVerified: false,
      requiredActions: ['VERIFY_EMAIL', 'UPDATE_PASSWORD'],
      attributes: { tenant_id: [ref.tenantId], tenant_slug: ['acme'] },
    });
    expect([...user!.realmRoles]).toEqual(['IT_ADMIN']);
    expect(fake.members.get(organizationId)).toEqual(new Set([userId]));
    expect(fake.invites).toEqual([
      {
        user_id: userId,
        actions: ['VERIFY_EMAIL', 'UPDATE_PASSWORD'],
        lifespan: 86400,
        client_id: 'tenant-portal',
        redirect_uri: 'https://portal.example.com/welcome',
        link: inviteUrl,
      },
    ]);
    expect(inviteUrl).toMatch(new RegExp(`^${fake.url}/realms/${fake.realm}/login-actions/action-token\\?key=`));
  });

  it('a retried provisioning reuses what the first attempt created; an existing membership is success', async () => {
    const idp = providerFor(fake);
    const ref = tenant();
    const first = await provision(idp, ref, 'ada@example.com');
    const second = await provision(idp, ref, 'ada@example.com');

    expect(second.organizationId).toBe(first.organizationId);
    expect(second.userId).toBe(first.userId);
    expect(fake.organizations.size).toBe(1);
    expect(fake.users.size).toBe(1);
    expect(fake.adminRequests('POST', '/organizations')).toHaveLength(1);
    expect(fake.adminRequests('POST', '/users')).toHaveLength(1);
    expect(fake.adminRequests('POST', '/members').map((r) => r.status)).toEqual([201, 409]);
    // The role grant is repeated on reuse (the first attempt may have stopped before it); Keycloak treats it as a no-op.
    expect(fake.adminRequests('POST', '/role-mappings/realm')).toHaveLength(2);
  });

  it('a creation that loses a race against an earlier attempt for the same tenant reuses the winner', async () => {
    const idp = providerFor(fake);
    const ref = tenant();
    const org = fake.addOrganization({ name: 'Acme', alias: 'acme', attributes: { tenant_id: [ref.tenantId] } });
    const user = fake.addUser({ username: 'ada@example.com', email: 'ada@example.com', attributes: { tenant_id: [ref.tenantId] } });
    // The searches run before the other attempt's creations became visible: they find nothing, the POSTs then conflict.
    fake.failNext('admin', { status: 200, body: [] });
    expect(await idp.ensureOrganization(ref)).toEqual({ organizationId: org.id });
    fake.failNext('admin', { status: 200, body: [] }, { status: 200, body: [] });
    expect(await idp.ensureUser(ref, 'ada@example.com', undefined)).toEqual({ userId: user.id });

    expect(fake.adminRequests('POST', '/organizations').map((r) => r.status)).toEqual([409]);
    expect(fake.adminRequests('POST', '/users').map((r) => r.status)).toEqual([409]);
    expect(fake.organizations.size).toBe(1);
    expect(fake.users.size).toBe(1);
  });

  it('organization_exists when the name or alias is held by an organization that is not this tenant\'s', async () => {
    const idp = providerFor(fake);
    fake.addOrganization({ name: 'Other name', alias: 'acme', attributes: { tenant_id: [randomUUID()] } });
    fake.addOrganization({ name: 'Globex', alias: 'globex-legacy' });

    const byAlias = await idpFailure(idp.ensureOrganization(tenant('acme', 'Acme')));
    expect(byAlias).toMatchObject({ kind: 'organization_exists', status: 409 });
    const byName = await idpFailure(idp.ensureOrganization(tenant('globex', 'Globex')));
    expect(byName.kind).toBe('organization_exists');
    expect(fake.organizations.size).toBe(2);
  });

  it('user_exists when the e-mail or username is held by a user that is not this tenant\'s', async () => {
    const idp = providerFor(fake);
    const ref = tenant();
    fake.addUser({ username: 'ada@example.com', email: 'ada@example.com', attributes: { tenant_id: [randomUUID()] } });
    fake.addUser({ username: 'bob@example.com', email: 'robert@example.com' });

    expect((await idpFailure(idp.ensureUser(ref, 'ada@example.com', 'Ada'))).kind).toBe('user_exists');
    expect((await idpFailure(idp.ensureUser(ref, 'bob@example.com', 'Bob'))).kind).toBe('user_exists');
    expect(fake.adminRequests('POST', '/users')).toHaveLength(0);
    expect(fake.adminRequests('POST', '/role-mappings/realm')).toHaveLength(0);
  });

  it('a realm without the IT_ADMIN role is rejected', async () => {
    fake.roles.clear();
    const err = await idpFailure(providerFor(fake).ensureUser(tenant(), 'ada@example.com', undefined));
    expect(err.kind).toBe('rejected');
    expect(err.message).toMatch(/no realm role IT_ADMIN/);
  });

  it('the admin token is cached across calls: one token request for several calls', async () => {
    const idp = providerFor(fake);
    await idp.ping();
    await idp.ensureOrganization(tenant());
    await idp.listTenantUserIds(randomUUID());
    expect(fake.tokenRequestCount()).toBe(1);
    expect(new Set(fake.adminRequests().map((r) => r.token)).size).toBe(1);
  });

  it('concurrent callers without a token share one in-flight token request', async () => {
    const idp = providerFor(fake);
    await Promise.all(Array.from({ length: 5 }, () => idp.ping()));
    expect(fake.tokenRequestCount()).toBe(1);
    expect(fake.adminRequests('GET', '/admin/serverinfo')).toHaveLength(5);
  });

  it('the token is refreshed before it expires (10 % of its lifetime, at most 30 s, ahead)', async () => {
    let now = Date.now();
    const idp = providerFor(fake, {}, { now: () => now });
    await idp.ping();
    now += 260_000; // 40 s of 300 left
    await idp.ping();
    expect(fake.tokenRequestCount()).toBe(1);
    now += 15_000; // 25 s left: inside the margin, while Keycloak still accepts the token
    await idp.ping();
    expect(fake.tokenRequestCount()).toBe(2);
    expect(fake.adminRequests().map((r) => r.status)).toEqual([200, 200, 200]);

    fake.tokenLifetimeSeconds = 10; // a short-lived token: refreshed 1 s (10 %) ahead
    now += 300_000;
    await idp.ping();
    now += 8_500;
    await idp.ping();
    expect(fake.tokenRequestCount()).toBe(3);
    now += 600;
    await idp.ping();
    expect(fake.tokenRequestCount()).toBe(4);
  });

  it('a 401 causes one token refresh and one retry, and the call succeeds', async () => {
    const idp = providerFor(fake);
    await idp.ping();
    fake.failNext('admin', { status: 401, body: { error: 'HTTP 401 Unauthorized' } });
    await idp.ping();
    const calls = fake.adminRequests('GET', '/admin/serverinfo');
    expect(calls.map((r) => r.status)).toEqual([200, 401, 200]);
    expect(calls[2]!.token).not.toBe(calls[1]!.token);
    expect(fake.tokenRequestCount()).toBe(2);

    fake.revokeTokens(); // a real refusal (e.g. the realm's keys rotated) is handled the same way
    const ref = tenant();
    expect((await idp.ensureOrganization(ref)).organizationId).toBeTruthy();
    expect(fake.tokenRequestCount()).toBe(3);
  });

  it('two 401s in a row end in unauthorized after exactly two token requests', async () => {
    const idp = providerFor(fake);
    fake.failNext('admin', { status: 401 }, { status: 401 });
    const err = await idpFailure(idp.ping());
    expect(err).toMatchObject({ kind: 'unauthorized', status: 401 });
    expect(fake.tokenRequestCount()).toBe(2);
    expect(fake.adminRequests()).toHaveLength(2);
  });

  it('a wrong or rotated client secret is unauthorized', async () => {
    fake.secret = 'the-secret-keycloak-expects';
    const err = await idpFailure(providerFor(fake).ping());
    expect(err).toMatchObject({ kind: 'unauthorized', status: 401 });
    expect(err.message).toMatch(/unauthorized_client/);
    expect(fake.adminRequests()).toHaveLength(0);

    fake.secret = SECRET;
    const idp = providerFor(fake);
    await idp.ping();
    fake.secret = 'rotated'; // rotated in Keycloak: old tokens die, new ones need the new secret
    fake.revokeTokens();
    expect((await idpFailure(idp.ping())).kind).toBe('unauthorized');

    fake.failNext('token', { status: 400, body: { error: 'invalid_client' } });
    expect((await idpFailure(providerFor(fake).ping())).kind).toBe('unauthorized');
  });

  it('503, 429 and a refused connection are unavailable (the retryable kind)', async () => {
    const idp = providerFor(fake);
    fake.failNext('admin', { status: 503 });
    expect(await idpFailure(idp.ensureOrganization(tenant()))).toMatchObject({ kind: 'unavailable', status: 503 });
    fake.failNext('admin', { status: 429 });
    expect(await idpFailure(idp.ping())).toMatchObject({ kind: 'unavailable', status: 429 });
    fake.failNext('token', { status: 503 });
    expect(await idpFailure(providerFor(fake).ping())).toMatchObject({ kind: 'unavailable', status: 503 });

    const gone = await startFakeKeycloak();
    await gone.close();
    const err = await idpFailure(providerFor(gone).ping());
    expect(err.kind).toBe('unavailable');
    expect(err.message).toMatch(/unreachable.*ECONNREFUSED/);
  });

  it('a hanging Keycloak is unavailable within IDP_HTTP_TIMEOUT_MS', async () => {
    const idp = providerFor(fake, { IDP_HTTP_TIMEOUT_MS: '300' });
    await idp.ping();
    fake.setFault('admin', { hang: true });
    let started = performance.now();
    expect((await idpFailure(idp.ping())).kind).toBe('unavailable');
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    expect(performance.now() - started).toBeLessThan(1500);

    fake.setFault('token', { hang: true });
    started = performance.now();
    const err = await idpFailure(providerFor(fake, { IDP_HTTP_TIMEOUT_MS: '300' }).ping());
    expect(err).toMatchObject({ kind: 'unavailable', message: expect.stringMatching(/in time/) });
    expect(performance.now() - started).toBeLessThan(1500);
  });

  it('the client secret never appears in errors, logs or the settings\' text forms', async () => {
    const lines: string[] = [];
    const log = pino({ level: 'trace' }, { write: (line: string) => void lines.push(line) });
    const failures: IdpError[] = [];
    const attempt = async (run: (idp: KeycloakIdentityProvider) => Promise<unknown>, extra: NodeJS.ProcessEnv = {}) => {
      failures.push(await idpFailure(run(providerFor(fake, extra, { log }))));
    };

    fake.secret = 'expected-by-keycloak';
    await attempt((idp) => idp.ping()); // wrong secret
    fake.secret = SECRET;
    // A misbehaving token endpoint echoing the secret: its free text is never quoted.
    fake.failNext('token', { status: 400, body: { error: `bad ${SECRET}`, error_description: SECRET } });
    await attempt((idp) => idp.ping());
    fake.failNext('token', { status: 503, body: { error: 'temporarily_unavailable', error_description: SECRET } });
    await attempt((idp) => idp.ping());
    fake.failNext('admin', { status: 401 }, { status: 401 });
    await attempt((idp) => idp.ping());
    fake.failNext('admin', { status: 400, body: { errorMessage: 'invalid attribute' } });
    await attempt((idp) => idp.ensureOrganization(tenant()));
    fake.failNext('token', { hang: true });
    await attempt((idp) => idp.ping(), { IDP_HTTP_TIMEOUT_MS: '100' });
    const gone = await startFakeKeycloak({ secret: SECRET });
    await gone.close();
    failures.push(await idpFailure(providerFor(gone, {}, { log }).ping()));

    expect(failures.map((err) => err.kind)).toEqual([
      'unauthorized', 'rejected', 'unavailable', 'unauthorized', 'rejected', 'unavailable', 'unavailable',
    ]);
    for (const err of failures) {
      for (const text of [err.message, err.stack ?? '', JSON.stringify(err), inspect(err, { depth: 5 }), String(err)]) {
        expect(text).not.toContain(SECRET);
      }
    }
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.join('\n')).not.toContain(SECRET);

    const settings = loadKeycloakSettings(envFor(fake))!;
    expect(settings.clientSecret.reveal()).toBe(SECRET);
    for (const text of [JSON.stringify(settings), inspect(settings), `${settings.clientSecret}`]) {
      expect(text).not.toContain(SECRET);
    }
    log.info({ settings }, 'settings');
    expect(lines.at(-1)).not.toContain(SECRET);
  });

  it("pushMembership writes the tenant's value and its top-level claim attributes into its home tenant's user, keeping the others", async () => {
    const idp = providerFor(fake);
    const tenantId = randomUUID();
    const user = fake.addUser({
      username: 'ada@example.com',
      email: 'ada@example.com',
      firstName: 'Ada',
      attributes: { department: ['research'], tenant_id: [tenantId], plan: ['free'] },
    });
    const membership = pushed({ tenant_id: tenantId, tenant_slug: 'acme', org_roles: ['IT_ADMIN'], permissions: ['members:manage'], products: ['crm', 'erp'] });

    await idp.pushMembership(user.id, 'acme', membership);
    expect(fake.users.get(user.id)!.attributes).toEqual({
      department: ['research'],
      tenant_id: [tenantId],
      tenant_slug: ['acme'],
      plan: ['pro'],
      tenant_status: ['active'],
      products: ['crm', 'erp'],
      org_roles: ['IT_ADMIN'],
      [TENANT_MEMBERSHIPS_ATTRIBUTE]: [JSON.stringify(membership)],
    });
    expect(fake.users.get(user.id)).toMatchObject({ email: 'ada@example.com', firstName: 'Ada' });

    const err = await idpFailure(idp.pushMembership(randomUUID(), 'acme', membership));
    expect(err).toMatchObject({ kind: 'rejected', status: 404 });
  });

  it("pushMembership of another tenant adds only that tenant's value; null removes it, and for the home tenant clears the top-level attributes", async () => {
    const idp = providerFor(fake);
    const home = pushed({ tenant_id: randomUUID(), tenant_slug: 'home', org_roles: ['IT_ADMIN'] });
    const other = pushed({ tenant_id: randomUUID(), tenant_slug: 'other', plan: 'enterprise', org_roles: ['MEMBER'] });
    const user = fake.addUser({ username: `multi-${randomUUID()}@example.com`, attributes: { tenant_id: [home.tenant_id], department: ['research'] } });

    await idp.pushMembership(user.id, 'home', home);
    await idp.pushMembership(user.id, 'other', other);
    expect(fake.users.get(user.id)!.attributes).toMatchObject({
      tenant_id: [home.tenant_id],
      tenant_slug: ['home'],
      plan: ['pro'],
      org_roles: ['IT_ADMIN'],
      [TENANT_MEMBERSHIPS_ATTRIBUTE]: [JSON.stringify(home), JSON.stringify(other)],
    });

    await idp.pushMembership(user.id, 'other', null);
    expect(fake.users.get(user.id)!.attributes[TENANT_MEMBERSHIPS_ATTRIBUTE]).toEqual([JSON.stringify(home)]);
    await idp.pushMembership(user.id, 'home', null);
    expect(fake.users.get(user.id)!.attributes).toEqual({ department: ['research'] });
    // Nothing to remove from a user Keycloak does not have.
    await expect(idp.pushMembership(randomUUID(), 'home', null)).resolves.toBeUndefined();
  });

  it('pushMembership writes nothing when the membership is already on the user', async () => {
    const idp = providerFor(fake);
    const membership = pushed({ tenant_id: randomUUID(), tenant_slug: 'same', products: ['crm'] });
    const user = fake.addUser({ username: `same-${randomUUID()}@example.com` });
    await idp.pushMembership(user.id, 'same', membership);
    const puts = fake.adminRequests('PUT', `/users/${user.id}`).length;
    await idp.pushMembership(user.id, 'same', membership);
    expect(fake.adminRequests('PUT', `/users/${user.id}`)).toHaveLength(puts);
  });

  it("pushMembership keeps an administrator's edit made while it ran: it reads again and merges over the new state", async () => {
    const idp = providerFor(fake);
    const user = fake.addUser({ username: `edit-${randomUUID()}@example.com`, firstName: 'Ada', attributes: { department: ['research'] } });
    let reads = 0;
    fake.afterUserRead = (read) => {
      // The administrator changes the user right after the push first read it.
      if (read.id === user.id && ++reads === 1) {
        read.firstName = 'Augusta';
        read.attributes = { ...read.attributes, department: ['analytics'] };
      }
    };
    try {
      await idp.pushMembership(user.id, 'acme', pushed({ tenant_id: randomUUID(), tenant_slug: 'acme' }));
    } finally {
      fake.afterUserRead = undefined;
    }
    expect(fake.users.get(user.id)).toMatchObject({ firstName: 'Augusta', attributes: { department: ['analytics'], plan: ['pro'], tenant_slug: ['acme'] } });
    expect(fake.adminRequests('PUT', `/users/${user.id}`)).toHaveLength(1);
  });

  it('pushMembership gives up as unavailable (retried later) when the user keeps changing under it', async () => {
    const idp = providerFor(fake);
    const user = fake.addUser({ username: `busy-${randomUUID()}@example.com` });
    let n = 0;
    fake.afterUserRead = (read) => {
      if (read.id === user.id) read.attributes = { ...read.attributes, counter: [String(++n)] };
    };
    try {
      const err = await idpFailure(idp.pushMembership(user.id, 'busy', pushed({ tenant_id: randomUUID(), tenant_slug: 'busy' })));
      expect(err).toMatchObject({ kind: 'unavailable' });
    } finally {
      fake.afterUserRead = undefined;
    }
    expect(fake.adminRequests('PUT', `/users/${user.id}`)).toHaveLength(0);
  });

  it('removeMembership takes the user out of the organization; not a member, or no such organization, is success', async () => {
    const idp = providerFor(fake);
    const { organizationId, userId } = await provision(idp, tenant('leave', 'Leave'), 'leave@example.com');
    await idp.removeMembership(organizationId, userId);
    expect(fake.members.get(organizationId)!.has(userId)).toBe(false);
    await expect(idp.removeMembership(organizationId, userId)).resolves.toBeUndefined();
    await expect(idp.removeMembership(randomUUID(), userId)).resolves.toBeUndefined();
    fake.failNext('admin', { status: 503 });
    const err = await idpFailure(idp.removeMembership(organizationId, userId));
    expect(err).toMatchObject({ kind: 'unavailable' });
  });

  it('memberships maps the user\'s organizations, tenant ids and org_roles; an unknown user has none', async () => {
    const idp = providerFor(fake);
    const tenantId = randomUUID();
    const own = fake.addOrganization({ name: 'Acme', alias: 'acme', attributes: { tenant_id: [tenantId] } });
    const foreign = fake.addOrganization({ name: 'Partner', alias: 'partner' });
    fake.addOrganization({ name: 'Unrelated', alias: 'unrelated' });
    const attributes = { org_roles: ['admin, billing', 'viewer'], tenant_id: [tenantId] };
    const user = fake.addUser({ username: 'ada@example.com', attributes });
    fake.members.get(own.id)!.add(user.id);
    fake.members.get(foreign.id)!.add(user.id);

    const memberships = await idp.memberships(user.id);
    expect(memberships).toEqual([
      { organizationId: own.id, tenantId, alias: 'acme', name: 'Acme', orgRoles: ['admin', 'billing', 'viewer'], attributes },
      { organizationId: foreign.id, tenantId: undefined, alias: 'partner', name: 'Partner', orgRoles: ['admin', 'billing', 'viewer'], attributes },
    ]);
    expect(fake.adminRequests('GET', '/organizations').at(-1)!.query.get('briefRepresentation')).toBe('false');
    expect(await idp.memberships(randomUUID())).toEqual([]);
  });

  it('listTenantUserIds pages through all members; a tenant without organization has none', async () => {
    const idp = providerFor(fake);
    const tenantId = randomUUID();
    const org = fake.addOrganization({ name: 'Acme', alias: 'acme', attributes: { tenant_id: [tenantId] } });
    const ids = Array.from({ length: 150 }, (_, i) => fake.addUser({ username: `user${i}@example.com` }).id);
    for (const id of ids) fake.members.get(org.id)!.add(id);

    expect((await idp.listTenantUserIds(tenantId)).sort()).toEqual([...ids].sort());
    expect(fake.adminRequests('GET', '/members').map((r) => [r.query.get('first'), r.query.get('max')])).toEqual([
      ['0', '100'],
      ['100', '100'],
    ]);
    expect(await idp.listTenantUserIds(randomUUID())).toEqual([]);
  });

  it('a realm without the invite extension is rejected (no invite without a link); its 500 is unavailable', async () => {
    const idp = providerFor(fake);
    const user = fake.addUser({ username: 'ada@example.com' });
    fake.inviteExtensionInstalled = false;
    const missing = await idpFailure(idp.sendInvite(user.id));
    expect(missing).toMatchObject({
      kind: 'rejected',
      status: 404,
      message: 'the tenant-registry invite extension is not installed in the realm',
    });

    fake.inviteExtensionInstalled = true;
    fake.failNext('admin', { status: 500, body: { errorMessage: 'Failed to send execute actions email' } });
    const mailDown = await idpFailure(idp.sendInvite(user.id));
    expect(mailDown).toMatchObject({ kind: 'unavailable', status: 500 });
    expect(mailDown.message).toMatch(/Failed to send execute actions email/);

    fake.failNext('admin', { status: 401 });
    expect((await idp.sendInvite(user.id)).inviteUrl).toBe(fake.invites[0]!.link);
    expect(fake.tokenRequestCount()).toBe(2);
  });

  it('HTTP statuses map to failure kinds in one place', () => {
    const table: [number, string | undefined, IdpFailureKind][] = [
      [401, undefined, 'unauthorized'],
      [403, undefined, 'unauthorized'],
      [400, 'invalid_client', 'unauthorized'],
      [400, 'unauthorized_client', 'unauthorized'],
      [408, undefined, 'unavailable'],
      [429, undefined, 'unavailable'],
      [500, undefined, 'unavailable'],
      [502, undefined, 'unavailable'],
      [503, undefined, 'unavailable'],
      [400, undefined, 'rejected'],
      [404, undefined, 'rejected'],
      [409, undefined, 'rejected'],
    ];
    for (const [status, oauthError, kind] of table) expect([status, oauthError, kindForStatus(status, oauthError)]).toEqual([status, oauthError, kind]);
  });
});

describe('loadKeycloakSettings', () => {
  const complete = {
    IDP_ADMIN_URL: 'https://sso.example.com/auth/',
    IDP_ADMIN_REALM: 'tenants',
    IDP_ADMIN_CLIENT_ID: 'tenant-registry-admin',
    IDP_ADMIN_CLIENT_SECRET: SECRET,
  };

  it('an empty IDP_ADMIN_URL selects no Keycloak (the simulated provider)', () => {
    expect(loadKeycloakSettings({})).toBeUndefined();
    expect(loadKeycloakSettings({ IDP_ADMIN_URL: '  ', IDP_ADMIN_REALM: 'x' })).toBeUndefined();
  });

  it('applies the defaults and trims the URL', () => {
    const settings = loadKeycloakSettings(complete)!;
    expect(settings).toMatchObject({
      url: 'https://sso.example.com/auth',
      realm: 'tenants',
      clientId: 'tenant-registry-admin',
      inviteLifespanSeconds: 604800,
      httpTimeoutMs: 5000,
      inviteClientId: undefined,
      inviteRedirectUri: undefined,
    });
  });

  it('IDP_ADMIN_URL without realm, client id or secret refuses to load, naming each', () => {
    expect(() => loadKeycloakSettings({ IDP_ADMIN_URL: 'https://sso.example.com' })).toThrow(
      'Invalid identity provider configuration: IDP_ADMIN_REALM is required when IDP_ADMIN_URL is set; ' +
        'IDP_ADMIN_CLIENT_ID is required when IDP_ADMIN_URL is set; IDP_ADMIN_CLIENT_SECRET is required when IDP_ADMIN_URL is set',
    );
  });

  it('refuses invalid values, naming them, without quoting the secret', () => {
    let message = '';
    try {
      loadKeycloakSettings({
        ...complete,
        IDP_ADMIN_URL: 'sso.example.com',
        IDP_HTTP_TIMEOUT_MS: '0',
        IDP_INVITE_LIFESPAN_SECONDS: '7d',
        IDP_INVITE_REDIRECT_URI: 'https://portal.example.com/',
      });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/IDP_ADMIN_URL must be an absolute http\(s\) URL/);
    expect(message).toMatch(/IDP_HTTP_TIMEOUT_MS must be a positive integer/);
    expect(message).toMatch(/IDP_INVITE_LIFESPAN_SECONDS must be a positive integer/);
    expect(message).toMatch(/IDP_INVITE_REDIRECT_URI needs IDP_INVITE_CLIENT_ID/);
    expect(message).not.toContain(SECRET);
  });
});
