import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeycloakIdentityProvider } from '../../identityProvider/keycloakIdentityProvider.ts';
import { startActorStack, type ActorStack } from '../support/actorStack.ts';
import { TEST_PASSWORD } from '../support/demoAppSession.ts';
import { eventually } from '../support/eventually.ts';
import { keycloakAdmin } from '../support/keycloakAdmin.ts';
import { keycloakContext, keycloakSettings } from '../support/keycloakContext.ts';
import { uniqueSlug } from '../support/testService.ts';
import { pastBruteForceGuard } from '../support/bruteForceGuard.ts';

/**
 * SPEC-EXTENSIONS §13 against the run's real Keycloak: a directory acts on an account only while its tenant governs
 * it. Another tenant's account, signed in with a live refresh token, is neither linked by the directory nor disabled
 * by its `active: false`: the Keycloak user stays enabled and its refresh token keeps working.
 */
const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

/** The shipped clients allow no password grant: a throwaway public client with direct grants opens the sessions. */
const SESSION_CLIENT_ID = `governance-probe-${randomUUID().slice(0, 8)}`;
let sessionClientId: string;
let stack: ActorStack;

beforeAll(async () => {
  stack = await startActorStack({ idp: () => new KeycloakIdentityProvider(keycloakSettings()) });
  ({ id: sessionClientId } = await (await keycloakAdmin()).clients.create({
    clientId: SESSION_CLIENT_ID,
    publicClient: true,
    directAccessGrantsEnabled: true,
    standardFlowEnabled: false,
  }));
}, 180_000);

afterAll(async () => {
  if (sessionClientId) await (await keycloakAdmin()).clients.del({ id: sessionClientId });
  await stack?.close();
});

const sql = (text: string, values: unknown[]) => stack.service.orm.em.fork().execute<Record<string, any>[]>(text, values);
const memberOf = async (tenantId: string, email: string) => (await sql('select user_id, status, source from members where tenant_id = ? and email = ?', [tenantId, email]))[0];

async function newTenant(extra: Record<string, unknown> = {}) {
  const slug = uniqueSlug('kcgov');
  const res = await stack.service.request('POST', '/v1/tenants', { slug, name: `Governance ${slug}`, ...extra });
  expect(res.status).toBe(201);
  return { id: res.body.tenant.id as string, slug };
}

async function newDirectory(tenant: { id: string }) {
  const created = await stack.service.request('POST', `/v1/tenants/${tenant.id}/directories`, {});
  expect(created.status).toBe(201);
  const { id, token } = created.body as { id: string; token: string };
  return (method: string, path: string, body?: unknown) =>
    stack.service.request(method, `/scim/v2/directories/${id}${path}`, body, {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/scim+json' }),
    });
}

const scimUser = (email: string) => ({ schemas: [USER_SCHEMA], userName: email, name: { givenName: 'Ada', familyName: 'Lovelace' }, emails: [{ value: email, primary: true }], active: true });

/** How long Keycloak's brute-force guard may hold the account after the admin's update and password reset. */
const GUARD_MS = 5_000;

const tokenEndpoint = () => `${keycloakContext().realmUrl}/protocol/openid-connect/token`;

/** A real session of the account: its password set and nothing left to do, then a password grant; the refresh token. */
async function openSession(userId: string, email: string): Promise<string> {
  const admin = await keycloakAdmin();
  const user = await admin.users.findOne({ id: userId });
  // The whole representation back: a partial one would drop the registry's attributes.
  await admin.users.update({ id: userId }, { ...user, requiredActions: [], emailVerified: true });
  await admin.users.resetPassword({ id: userId, credential: { type: 'password', value: TEST_PASSWORD, temporary: false } });
  const { status, body } = await pastBruteForceGuard(async () => {
    const response = await fetch(tokenEndpoint(), {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'password', client_id: SESSION_CLIENT_ID, username: email, password: TEST_PASSWORD, scope: 'openid' }),
    });
    return { status: response.status, body: (await response.json()) as { refresh_token?: string; error?: string; error_description?: string } };
  }, GUARD_MS);
  expect({ status, error: body.error_description }).toEqual({ status: 200, error: undefined });
  return body.refresh_token!;
}

/** A refresh_token grant: its status and the refresh token it hands out (Keycloak may rotate it). */
async function refreshed(refreshToken: string): Promise<{ status: number; refreshToken?: string; error?: string }> {
  const response = await fetch(tokenEndpoint(), {
    method: 'POST',
    body: new URLSearchParams({ grant_type: 'refresh_token', client_id: SESSION_CLIENT_ID, refresh_token: refreshToken }),
  });
  const body = (await response.json()) as { refresh_token?: string; error?: string };
  return { status: response.status, refreshToken: body.refresh_token, error: body.error };
}

const enabledInKeycloak = async (userId: string) => (await (await keycloakAdmin()).users.findOne({ id: userId }))?.enabled;

describe("a directory acts only on accounts its tenant governs, in the real Keycloak", () => {
  it("a SCIM user at another tenant's admin address is 409 uniqueness; that admin's Keycloak user stays enabled and its refresh token refreshes", async () => {
    const adminEmail = `it-admin-${uniqueSlug('b')}@victim.example`;
    const victim = await newTenant({ admin_email: adminEmail, admin_name: 'Grace Hopper' });
    const admin = await eventually(async () => {
      const member = await memberOf(victim.id, adminEmail);
      return member?.user_id ? member : undefined;
    }, 60_000, "the victim's admin member");
    const userId = admin.user_id as string;
    const refreshToken = await openSession(userId, adminEmail);

    const attacker = await newTenant();
    const scim = await newDirectory(attacker);
    expect((await scim('POST', '/Users', scimUser(adminEmail))).body).toMatchObject({ status: '409', scimType: 'uniqueness' });
    expect((await scim('POST', '/Users', { ...scimUser(`alias@${attacker.slug}.example`), emails: [{ value: adminEmail, primary: true }] })).body).toMatchObject({
      status: '409',
      scimType: 'uniqueness',
    });
    expect((await scim('GET', `/Users?filter=${encodeURIComponent(`userName eq "${adminEmail}"`)}`)).body.totalResults).toBe(0);

    expect(await enabledInKeycloak(userId)).toBe(true);
    expect(await refreshed(refreshToken)).toMatchObject({ status: 200 });
    expect(await memberOf(attacker.id, adminEmail)).toBeUndefined();
  });

  it("active: false of a SCIM user whose account became another tenant's member too deactivates the directory's member only: the Keycloak user stays enabled and its refresh token refreshes", async () => {
    const maker = await newTenant();
    const scim = await newDirectory(maker);
    const email = `shared@${maker.slug}.example`;
    const created = await scim('POST', '/Users', scimUser(email));
    expect(created.status).toBe(201);
    const made = await eventually(async () => {
      const member = await memberOf(maker.id, email);
      return member?.status === 'active' ? member : undefined;
    }, 30_000, "the directory's member");
    const userId = made.user_id as string;
    expect(made.source).toBe('directory');

    // Another tenant makes the account its member: from now on the directory's tenant no longer governs it.
    const other = await newTenant();
    expect((await stack.service.request('PUT', `/v1/tenants/${other.id}/members/${userId}`, { roles: ['MEMBER'] })).status).toBe(201);
    const refreshToken = await openSession(userId, email);

    const patched = await scim('PATCH', `/Users/${created.body.id}`, { schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'active', value: false }] });
    expect(patched).toMatchObject({ status: 200, body: { active: false } });
    await eventually(async () => (await memberOf(maker.id, email))?.status === 'inactive', 30_000, "the directory's member inactive");
    // The tenant's actor handles its commands one after the other: once a later SCIM user is a member, the
    // deactivation's sync, provider step included, is over.
    const later = `later@${maker.slug}.example`;
    expect((await scim('POST', '/Users', scimUser(later))).status).toBe(201);
    await eventually(async () => (await memberOf(maker.id, later))?.status === 'active', 30_000, 'the later member');

    expect(await enabledInKeycloak(userId)).toBe(true);
    expect(await refreshed(refreshToken)).toMatchObject({ status: 200 });
    expect(await memberOf(other.id, email)).toMatchObject({ user_id: userId, status: 'active' });
  });
});
