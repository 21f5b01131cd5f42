import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { NetworkError } from '@keycloak/keycloak-admin-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_CLIENT_ID,
  CALLER_CLIENT_ID,
  CALLER_NO_AUDIENCE_CLIENT_ID,
  CLAIMS_MAPPER_CLIENT_ID,
  PRODUCT_CLIENT_ID,
  type RealmClientSecrets,
} from '../../platform/keycloakServer.ts';
import { eventually } from '../support/eventually.ts';
import { keycloakAdmin } from '../support/keycloakAdmin.ts';
import { keycloakContext } from '../support/keycloakContext.ts';
import { serviceAccountToken } from '../support/serviceAccountToken.ts';

/**
 * The hardening keycloak/realm-tenant-registry.json ships (SPEC-EXTENSIONS §12), checked in the run's Keycloak:
 * brute-force protection, the password policy, login and admin events, and the registry's admin client without
 * manage-realm.
 */
const PASSWORD = 'Correct-horse-battery-9';

type TokenClaims = { realm_access?: { roles: string[] }; resource_access?: Record<string, { roles: string[] }> };
const claimsOf = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString('utf8')) as TokenClaims;

/**
 * The shipped clients allow no password grant; brute-force protection counts failures per user whatever the flow, so
 * a throwaway public client with direct grants drives the failed logins.
 */
const PROBE_CLIENT_ID = `hardening-probe-${randomUUID().slice(0, 8)}`;
let probeClientId: string;
beforeAll(async () => {
  ({ id: probeClientId } = await (await keycloakAdmin()).clients.create({
    clientId: PROBE_CLIENT_ID,
    publicClient: true,
    directAccessGrantsEnabled: true,
    standardFlowEnabled: false,
  }));
});
afterAll(async () => {
  if (probeClientId) await (await keycloakAdmin()).clients.del({ id: probeClientId });
});

/** A user as the registry makes them (the e-mail as username), with PASSWORD and nothing left to do before login. */
async function createUser(): Promise<{ id: string; email: string }> {
  const email = `hardening-${randomUUID().slice(0, 8)}@example.test`;
  const { id } = await (await keycloakAdmin()).users.create({
    username: email,
    email,
    emailVerified: true,
    firstName: 'Grace',
    lastName: 'Hopper',
    enabled: true,
    credentials: [{ type: 'password', value: PASSWORD, temporary: false }],
  });
  return { id, email };
}

async function passwordGrant(username: string, password: string): Promise<{ status: number; error?: string }> {
  const response = await fetch(`${keycloakContext().realmUrl}/protocol/openid-connect/token`, {
    method: 'POST',
    body: new URLSearchParams({ grant_type: 'password', client_id: PROBE_CLIENT_ID, username, password }),
  });
  const body = (await response.json()) as { error?: string };
  return { status: response.status, error: body.error };
}

/** Sets a user's password through the admin API; the error Keycloak answers with when it refuses, else undefined. */
async function refusalOfPassword(userId: string, value: string): Promise<string | undefined> {
  try {
    await (await keycloakAdmin()).users.resetPassword({ id: userId, credential: { type: 'password', value, temporary: false } });
    return undefined;
  } catch (err) {
    if (!(err instanceof NetworkError)) throw err;
    return JSON.stringify(err.responseData);
  }
}

describe('the realm as Keycloak imported it', () => {
  it('has brute-force protection with temporary lockouts, the password policy, and login and admin events on', async () => {
    const realm = await (await keycloakAdmin()).realms.findOne({ realm: keycloakContext().realm });
    expect(realm).toMatchObject({
      bruteForceProtected: true,
      permanentLockout: false,
      bruteForceStrategy: 'MULTIPLE',
      failureFactor: 5,
      waitIncrementSeconds: 60,
      maxFailureWaitSeconds: 900,
      maxDeltaTimeSeconds: 43_200,
      quickLoginCheckMilliSeconds: 1000,
      minimumQuickLoginWaitSeconds: 60,
      passwordPolicy: 'length(12) and maxLength(128) and notContainsUsername and notEmail and passwordHistory(3)',
      eventsEnabled: true,
      eventsExpiration: 7_776_000,
      adminEventsEnabled: true,
      adminEventsDetailsEnabled: true,
    });
    expect(realm?.attributes).toMatchObject({ adminEventsExpiration: '7776000' });
    expect(realm?.enabledEventTypes).toEqual(
      expect.arrayContaining(['LOGIN', 'LOGIN_ERROR', 'CLIENT_LOGIN_ERROR', 'USER_DISABLED_BY_TEMPORARY_LOCKOUT', 'EXECUTE_ACTION_TOKEN', 'UPDATE_PASSWORD']),
    );
  });
});

describe('brute-force protection', () => {
  it('locks a user out after failureFactor wrong passwords, refuses even the right one then, and records each failure as LOGIN_ERROR', async () => {
    const realm = await (await keycloakAdmin()).realms.findOne({ realm: keycloakContext().realm });
    const failureFactor = realm!.failureFactor!;
    const user = await createUser();
    expect(await passwordGrant(user.email, PASSWORD)).toMatchObject({ status: 200 });

    // Failures closer together than quickLoginCheckMilliSeconds lock at once; spaced out, only the count does.
    const spaced = async () => {
      await sleep(realm!.quickLoginCheckMilliSeconds! + 250);
      expect(await passwordGrant(user.email, 'Wrong-horse-battery-9')).toEqual({ status: 400, error: 'invalid_grant' });
    };
    for (let failure = 1; failure < failureFactor; failure++) await spaced();
    const below = await eventually(async () => {
      const state = await (await keycloakAdmin()).attackDetection.findOne({ id: user.id });
      return state?.numFailures === failureFactor - 1 ? state : undefined;
    }, 10_000, `${failureFactor - 1} failures counted`);
    expect(below.disabled).toBe(false);

    await spaced();
    await eventually(async () => (await (await keycloakAdmin()).attackDetection.findOne({ id: user.id }))?.disabled === true, 10_000, 'the lockout');
    expect(await passwordGrant(user.email, PASSWORD)).toEqual({ status: 400, error: 'invalid_grant' });

    const events = await eventually(async () => {
      const found = await (await keycloakAdmin()).realms.findEvents({ realm: keycloakContext().realm, user: user.id, max: 100 });
      return found.filter((event) => event.type === 'LOGIN_ERROR').length >= failureFactor ? found : undefined;
    }, 10_000, 'the LOGIN_ERROR events');
    expect(events.map((event) => event.type)).toContain('USER_DISABLED_BY_TEMPORARY_LOCKOUT');

    // Temporary: an operator (or the wait) lifts it, and the right password works again.
    await (await keycloakAdmin()).attackDetection.del({ id: user.id });
    expect(await passwordGrant(user.email, PASSWORD)).toMatchObject({ status: 200 });
  });
});

describe('the password policy', () => {
  it('refuses a password under 12 characters, one containing the username (the registry makes the e-mail the username), and a recently used one', async () => {
    const user = await createUser();
    expect(await refusalOfPassword(user.id, 'Short-pw-9')).toMatch(/invalidPasswordMinLengthMessage/);
    expect(await refusalOfPassword(user.id, `${user.email}-Secret-9`)).toMatch(/invalidPasswordNotContainsUsernameMessage/);
    expect(await refusalOfPassword(user.id, PASSWORD)).toMatch(/invalidPasswordHistoryMessage/);
    expect(await refusalOfPassword(user.id, 'Another-horse-battery-7')).toBeUndefined();
  });
});

describe('admin events', () => {
  it('records an administrator\'s change with its representation', async () => {
    const user = await createUser();
    const events = await eventually(async () => {
      const found = await (await keycloakAdmin()).realms.findAdminEvents({ realm: keycloakContext().realm, resourcePath: `users/${user.id}` });
      return found.length > 0 ? found : undefined;
    }, 10_000, 'the admin event');
    expect(events[0]).toMatchObject({ operationType: 'CREATE', resourceType: 'USER' });
    expect(JSON.parse(events[0]!.representation!)).toMatchObject({ email: user.email });
  });
});

describe("the service clients' roles", () => {
  const secretOf = (name: keyof RealmClientSecrets) => keycloakContext().secrets[name];

  /** The realm-management roles the client's service account holds, composites expanded. */
  async function realmManagementRolesOf(clientId: string): Promise<string[]> {
    const admin = await keycloakAdmin();
    const [client] = await admin.clients.find({ clientId });
    const serviceAccount = await admin.clients.getServiceAccountUser({ id: client!.id! });
    const [realmManagement] = await admin.clients.find({ clientId: 'realm-management' });
    const roles = await admin.users.listCompositeClientRoleMappings({ id: serviceAccount.id!, clientUniqueId: realmManagement!.id! });
    return roles.map((role) => role.name!).sort();
  }

  it("the registry's admin client holds manage-users, manage-organizations, manage-identity-providers (SSO connections) and view-realm, and its token no more", async () => {
    const held = ['manage-identity-providers', 'manage-organizations', 'manage-users', 'view-realm'];
    expect(await realmManagementRolesOf(ADMIN_CLIENT_ID)).toEqual(held);
    const claims = claimsOf(await serviceAccountToken(ADMIN_CLIENT_ID, secretOf('admin')));
    expect(claims.resource_access).toEqual({ 'realm-management': { roles: expect.arrayContaining(held) } });
    expect(claims.resource_access?.['realm-management']?.roles).toHaveLength(4);
    expect(claims.realm_access).toBeUndefined();
  });

  it("the registry's admin client cannot change the realm or its clients, nor read the clients' secrets (403)", async () => {
    const token = await serviceAccountToken(ADMIN_CLIENT_ID, secretOf('admin'));
    const realmUrl = `${keycloakContext().url}/admin/realms/${keycloakContext().realm}`;
    const asAdminClient = (path: string, method: string, body?: unknown) =>
      fetch(`${realmUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    expect((await asAdminClient('', 'PUT', { bruteForceProtected: false })).status).toBe(403);
    expect((await asAdminClient('/clients', 'POST', { clientId: `${PROBE_CLIENT_ID}-by-registry` })).status).toBe(403);
    expect((await asAdminClient(`/clients?clientId=${CALLER_CLIENT_ID}`, 'GET')).status).toBe(403);
    expect((await (await keycloakAdmin()).realms.findOne({ realm: keycloakContext().realm }))?.bruteForceProtected).toBe(true);
  });

  it('the inbound service clients hold no realm-management role, and their tokens carry no roles (fullScopeAllowed off)', async () => {
    const clients: Array<[string, keyof RealmClientSecrets]> = [
      [CALLER_CLIENT_ID, 'caller'],
      [CALLER_NO_AUDIENCE_CLIENT_ID, 'callerNoAudience'],
      [CLAIMS_MAPPER_CLIENT_ID, 'claimsMapper'],
      [PRODUCT_CLIENT_ID, 'product'],
    ];
    for (const [clientId, secret] of clients) {
      expect(await realmManagementRolesOf(clientId), clientId).toEqual([]);
      const [client] = await (await keycloakAdmin()).clients.find({ clientId });
      expect(client?.fullScopeAllowed, clientId).toBe(false);
      const claims = claimsOf(await serviceAccountToken(clientId, secretOf(secret)));
      expect(claims.resource_access, clientId).toBeUndefined();
      expect(claims.realm_access, clientId).toBeUndefined();
    }
  });
});
