import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeycloakIdentityProvider } from '../../identityProvider/keycloakIdentityProvider.ts';
import { DEMO_APP_CLIENT_ID } from '../../platform/keycloakServer.ts';
import { startActorStack, type ActorStack } from '../support/actorStack.ts';
import { claimsOf, refreshAnswer, TEST_PASSWORD, type Tokens } from '../support/demoAppSession.ts';
import { eventually } from '../support/eventually.ts';
import { keycloakAdmin } from '../support/keycloakAdmin.ts';
import { keycloakContext, keycloakSettings } from '../support/keycloakContext.ts';
import { uniqueSlug } from '../support/testService.ts';
import { pastBruteForceGuard } from '../support/bruteForceGuard.ts';

/**
 * SPEC-EXTENSIONS §15, no false refusal, against the run's real Keycloak: every allowed combination of tenant status
 * (demo, trial, active), client (one of no product, one of a product the tenant holds) and policy (none, require_sso
 * for a break_glass member, session_max_hours, both), 24 cases, gets tokens at Keycloak's token endpoint and refreshes
 * them. A token request per case keeps it cheap: two clients of the demo app's make, with the password grant, made for
 * this file only (the realm's own clients keep the browser flows). Then the refusals the matrix borders on (the
 * entitlement revoked, require_sso without break_glass, frozen, archived) are in force at refresh within 5 s.
 */
const PRODUCT = 'api-access';
const PLAIN_CLIENT = 'tenant-registry-matrix-plain';
const PRODUCT_CLIENT = 'tenant-registry-matrix-product';
const IN_FORCE_MS = 5_000;

const TENANT_STATUSES = ['demo', 'trial', 'active'] as const;
const CLIENTS = [PLAIN_CLIENT, PRODUCT_CLIENT] as const;
const POLICIES = [
  { name: 'no policy', sign_in: { require_sso: false, session_max_hours: null } },
  { name: 'require_sso, the member break_glass', sign_in: { require_sso: true, session_max_hours: null } },
  { name: 'session_max_hours 8', sign_in: { require_sso: false, session_max_hours: 8 } },
  { name: 'require_sso and session_max_hours 8', sign_in: { require_sso: true, session_max_hours: 8 } },
] as const;

let stack: ActorStack;
type Member = { status: (typeof TENANT_STATUSES)[number]; tenantId: string; slug: string; userId: string; email: string };
const members: Member[] = [];

/** The user's pushed value of tenant_memberships for one tenant. */
async function pushedMembership(userId: string, tenantId: string): Promise<Record<string, unknown> | undefined> {
  const user = await (await keycloakAdmin()).users.findOne({ id: userId });
  const values = (user?.attributes?.tenant_memberships ?? []) as string[];
  return values.map((value) => JSON.parse(value) as Record<string, unknown>).find((value) => value.tenant_id === tenantId);
}

/** A copy of the demo app's client that takes the password grant, its claims mapper pointed at this file's registry. */
async function passwordGrantClient(clientId: string): Promise<void> {
  const admin = await keycloakAdmin();
  for (const stale of await admin.clients.find({ clientId })) await admin.clients.del({ id: stale.id! });
  const [demo] = await admin.clients.find({ clientId: DEMO_APP_CLIENT_ID });
  const mappers = await admin.clients.listProtocolMappers({ id: demo!.id! });
  await admin.clients.create({
    clientId,
    enabled: true,
    protocol: 'openid-connect',
    publicClient: true,
    standardFlowEnabled: false,
    directAccessGrantsEnabled: true,
    fullScopeAllowed: false,
    protocolMappers: mappers.map(({ id: _id, ...mapper }) =>
      mapper.protocolMapper === 'tenant-registry-claims' ? { ...mapper, config: { ...mapper.config, 'registry.url': stack.service.baseUrl, 'timeout.ms': '5000' } } : mapper,
    ),
  });
}

type GrantAnswer = { status: number; body: Tokens & { error?: string; error_description?: string } };

/** The token endpoint's answer to a password grant of `clientId` for the member's organization. */
async function passwordGrant(member: Member, clientId: string): Promise<GrantAnswer> {
  const ask = async (): Promise<GrantAnswer> => {
    const response = await fetch(`${keycloakContext().realmUrl}/protocol/openid-connect/token`, {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'password', client_id: clientId, username: member.email, password: TEST_PASSWORD, scope: `openid organization:${member.slug}` }),
    });
    return { status: response.status, body: (await response.json()) as GrantAnswer['body'] };
  };
  return pastBruteForceGuard(ask, IN_FORCE_MS);
}

/** A tenant in `status`, entitled to PRODUCT, and a member of it marked break_glass, in Keycloak too. */
async function memberOfTenantIn(status: Member['status']): Promise<Member> {
  const slug = uniqueSlug(`matrix-${status}`);
  const created = await stack.service.request('POST', '/v1/tenants', { slug, name: `Matrix ${slug}`, ...(status === 'demo' ? { kind: 'demo' } : {}) });
  expect(created.status).toBe(201);
  const tenantId = created.body.tenant.id as string;
  if (status === 'active') expect((await stack.service.request('POST', `/v1/tenants/${tenantId}/activate`, {})).body.status).toBe('active');
  expect((await stack.service.request('GET', `/v1/tenants/${tenantId}`)).body.status).toBe(status);
  expect((await stack.service.request('PUT', `/v1/tenants/${tenantId}/entitlements/${PRODUCT}`, {})).status).toBe(201);
  const email = `member-${slug}@matrix.example`;
  const { id: userId } = await (await keycloakAdmin()).users.create({
    username: email,
    email,
    firstName: 'Grace',
    lastName: 'Hopper',
    enabled: true,
    emailVerified: true,
    credentials: [{ type: 'password', value: TEST_PASSWORD, temporary: false }],
  });
  const path = `/v1/tenants/${tenantId}/members/${userId}`;
  expect((await stack.service.request('PUT', path, { roles: ['MEMBER'] })).status).toBe(201);
  expect((await stack.service.request('PUT', `${path}/break-glass`, { break_glass: true })).status).toBe(200);
  await eventually(async () => (await pushedMembership(userId, tenantId))?.break_glass === true, 60_000, 'the pushed membership');
  await eventually(
    async () => (await (await keycloakAdmin()).organizations.memberOrganizations({ userId })).some((organization) => organization.alias === slug),
    60_000,
    'the organization membership',
  );
  return { status, tenantId, slug, userId, email };
}

/** The refresh is refused (invalid_grant, `reason`) within IN_FORCE_MS of now, right after the change was answered. */
async function refusedAtRefresh(tokens: Tokens, clientId: string, reason: string): Promise<void> {
  const answer = await eventually(async () => {
    const attempt = await refreshAnswer(tokens, clientId);
    return attempt.status === 200 ? undefined : attempt;
  }, IN_FORCE_MS, `a refused refresh (${reason})`);
  expect(answer).toMatchObject({ status: 400, body: { error: 'invalid_grant', error_description: reason } });
}

beforeAll(async () => {
  stack = await startActorStack({ idp: () => new KeycloakIdentityProvider(keycloakSettings()) });
  for (const clientId of CLIENTS) await passwordGrantClient(clientId);
  expect((await stack.service.request('PUT', `/v1/catalog/${PRODUCT}/clients`, { client_ids: [PRODUCT_CLIENT] })).status).toBe(200);
  for (const status of TENANT_STATUSES) members.push(await memberOfTenantIn(status));
}, 300_000);

afterAll(async () => {
  await stack?.service.request('PUT', `/v1/catalog/${PRODUCT}/clients`, { client_ids: [] });
  const admin = await keycloakAdmin();
  for (const clientId of CLIENTS) for (const client of await admin.clients.find({ clientId })) await admin.clients.del({ id: client.id! });
  await stack?.close();
});

describe('tenant status × client × policy: what the registry allows, Keycloak allows', () => {
  it('24 allowed cases get tokens with the registry claims at the token endpoint, and refresh them', async () => {
    const outcomes: string[] = [];
    for (const policy of POLICIES) {
      for (const member of members) {
        const patched = await stack.service.request('PATCH', `/v1/tenants/${member.tenantId}`, { settings: { sign_in: policy.sign_in } });
        expect(patched.status).toBe(200);
        // In force once pushed: the registry answers from its store, notified at once; the push comes after.
        await eventually(async () => {
          const pushed = (await pushedMembership(member.userId, member.tenantId))?.sign_in as { require_sso?: boolean; session_max_hours?: number } | undefined;
          return pushed?.require_sso === policy.sign_in.require_sso && (pushed?.session_max_hours ?? null) === policy.sign_in.session_max_hours;
        }, 30_000, `the pushed policy (${policy.name})`);
      }
      for (const member of members) {
        for (const clientId of CLIENTS) {
          const granted = await passwordGrant(member, clientId);
          const refreshed = granted.status === 200 ? await refreshAnswer(granted.body, clientId) : undefined;
          const claims = granted.status === 200 ? claimsOf(granted.body.access_token) : {};
          const allowed = granted.status === 200 && refreshed?.status === 200 && claims.tenant_id === member.tenantId && claims.claims_source === 'registry';
          outcomes.push(`${member.status} × ${clientId} × ${policy.name}: ${allowed ? 'allowed' : `refused ${granted.body.error_description ?? refreshed?.body.error_description ?? JSON.stringify(claims)}`}`);
        }
      }
    }
    expect(outcomes).toHaveLength(24);
    expect(outcomes.filter((outcome) => !outcome.endsWith(': allowed'))).toEqual([]);
  }, 300_000);

  it('each refusal at the edge of the matrix is in force at refresh within 5 s of its change', async () => {
    const [demo, trial, active] = members as [Member, Member, Member];
    const tokensOf = async (member: Member, clientId: string) => {
      const granted = await passwordGrant(member, clientId);
      expect(granted.status).toBe(200);
      return granted.body;
    };
    for (const member of members) {
      expect((await stack.service.request('PATCH', `/v1/tenants/${member.tenantId}`, { settings: { sign_in: { require_sso: false, session_max_hours: null } } })).status).toBe(200);
    }
    // The entitlement revoked: the product's client refused, the client of no product still allowed.
    const productTokens = await tokensOf(trial, PRODUCT_CLIENT);
    const plainTokens = await tokensOf(trial, PLAIN_CLIENT);
    expect((await stack.service.request('DELETE', `/v1/tenants/${trial.tenantId}/entitlements/${PRODUCT}`)).status).toBe(204);
    await refusedAtRefresh(productTokens, PRODUCT_CLIENT, 'not_entitled');
    expect((await refreshAnswer(plainTokens, PLAIN_CLIENT)).status).toBe(200);
    // A password grant is a sign-in of its own, refused there too.
    expect(await passwordGrant(trial, PRODUCT_CLIENT)).toMatchObject({ status: 400, body: { error: 'invalid_grant', error_description: 'not_entitled' } });
    // require_sso once the break_glass mark is taken away.
    const ssoTokens = await tokensOf(demo, PLAIN_CLIENT);
    expect((await stack.service.request('PATCH', `/v1/tenants/${demo.tenantId}`, { settings: { sign_in: { require_sso: true } } })).status).toBe(200);
    expect((await refreshAnswer(ssoTokens, PLAIN_CLIENT)).status).toBe(200);
    expect((await stack.service.request('PUT', `/v1/tenants/${demo.tenantId}/members/${demo.userId}/break-glass`, { break_glass: false })).status).toBe(200);
    await refusedAtRefresh(ssoTokens, PLAIN_CLIENT, 'sso_required');
    expect(await passwordGrant(demo, PLAIN_CLIENT)).toMatchObject({ status: 400, body: { error: 'invalid_grant', error_description: 'sso_required' } });
    // The tenant frozen, and another archived.
    const tenantTokens = await tokensOf(active, PLAIN_CLIENT);
    expect((await stack.service.request('POST', `/v1/tenants/${trial.tenantId}/cancel`, {})).body.status).toBe('frozen');
    await refusedAtRefresh(plainTokens, PLAIN_CLIENT, 'tenant_frozen');
    expect((await stack.service.request('POST', `/v1/tenants/${active.tenantId}/archive`, {})).body.status).toBe('archived');
    await refusedAtRefresh(tenantTokens, PLAIN_CLIENT, 'tenant_archived');
  }, 180_000);
});
