/**
 * `npm run bench -- --keycloak`: what the tenant-registry-claims mapper adds to token issuance. Starts the project's
 * Keycloak (platform/keycloakServer.ts) with its mapper pointed at the benchmarked service, makes two confidential
 * clients that differ only in the mapper, and has each issue client-credentials tokens for a service-account user of a
 * seeded tenant, alternately, one request at a time, so both see the same machine at the same moments.
 *
 * Then the same for a person's tokens with the sign-in policy on and off (SPEC-EXTENSIONS §15): two clients with the
 * mapper and the password grant, each for a member of its own seeded tenant. On: the realm's client policy (the
 * executor that refuses what the registry refuses) is enabled and the tenant limits its sessions' age. Off: the client
 * policy is disabled and the tenant has no sign-in policy. No client policy condition can leave one client out at a
 * password grant (every one but any-client, client-roles among them, abstains at its response event, where the
 * executor runs), so the policy is switched between blocks of requests instead of between requests. A service account's token is no sign-in, so the
 * rows above never reach the policy.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import KeycloakAdminClient from '@keycloak/keycloak-admin-client';
import pg from 'pg';
import { startKeycloak } from '../platform/keycloakServer.ts';
import { createLogger } from '../platform/logger.ts';
import { summarizeLatencies, type LoadResult } from './loadRun.ts';

export const TOKEN_ROW = 'token issuance (client credentials)';
const SIGN_IN_ROW = 'token issuance (password grant)';
/** The realm's client policy that runs the sign-in executor (keycloak/realm-tenant-registry.json). */
const SIGN_IN_CLIENT_POLICY = 'tenant-registry-sign-in';
/** Requests of one client between two switches of the client policy: a switch costs Keycloak a reload of the realm. */
const POLICY_BLOCK = 100;
const PERSON_PASSWORD = 'Bench-Person-Password-1';

type TokenClient = { clientId: string; secret: string };

export type TokenIssuance = { withoutMapper: LoadResult; withMapper: LoadResult; policyOff: LoadResult; policyOn: LoadResult };

export async function measureTokenIssuance(options: {
  serviceUrl: string;
  /** The registry's internal listener, which Keycloak's extension calls. */
  internalUrl: string;
  databaseUrl: string;
  tenantId: string;
  /** Two other tenants: the first's member signs in with the policy on, the second's with it off. */
  signInTenantIds: [string, string];
  dataDir: string;
  requests: number;
  warmup: number;
  log: (message: string) => void;
}): Promise<TokenIssuance> {
  const { log } = options;
  log('starting Keycloak for the token issuance rows (a minute or two)');
  const keycloak = await startKeycloak(
    // The bench's clients send no e-mail; the realm needs an SMTP address all the same.
    { smtp: { host: '127.0.0.1', port: 9 }, logFile: resolve(options.dataDir, 'keycloak.log'), registryUrl: options.internalUrl },
    createLogger('warn', 'bench-keycloak'),
  );
  try {
    const admin = new KeycloakAdminClient({ baseUrl: keycloak.url, realmName: 'master' });
    // A fresh token from the master realm: the client's own refresh asks the realm it is set to, which refuses it.
    const authenticate = async () => {
      admin.setConfig({ realmName: 'master' });
      await admin.auth({ grantType: 'password', clientId: 'admin-cli', username: keycloak.bootstrapAdmin.username, password: keycloak.bootstrapAdmin.password });
      admin.setConfig({ realmName: keycloak.realm });
    };
    await authenticate();
    const makeClient = async (clientId: string, withMapper: boolean, grant: 'client_credentials' | 'password' = 'client_credentials'): Promise<TokenClient> => {
      const secret = randomBytes(24).toString('base64url');
      const { id } = await admin.clients.create({
        clientId,
        secret,
        publicClient: false,
        serviceAccountsEnabled: grant === 'client_credentials',
        standardFlowEnabled: false,
        directAccessGrantsEnabled: grant === 'password',
        protocolMappers: withMapper
          ? [
              {
                name: 'tenant registry claims',
                protocol: 'openid-connect',
                protocolMapper: 'tenant-registry-claims',
                // No service client: the benchmarked service runs without AUTH_ENABLED.
                config: { 'registry.url': options.internalUrl, 'timeout.ms': '500', 'access.token.claim': 'true' },
              },
            ]
          : [],
      });
      if (grant === 'client_credentials') {
        const user = await admin.clients.getServiceAccountUser({ id });
        await admin.users.update({ id: user.id! }, { ...user, attributes: { ...user.attributes, tenant_id: [options.tenantId] } });
        // The registry's claims count for a user it has a member record of (or an organization Keycloak vouches for).
        await insertMember(options.databaseUrl, options.tenantId, user.id!, `${clientId}@bench.example`);
      }
      return { clientId, secret };
    };
    const without = await makeClient('bench-token-without-mapper', false);
    const withMapper = await makeClient('bench-token-with-claims-mapper', true);

    const tokenUrl = `${keycloak.realmUrl}/protocol/openid-connect/token`;
    const tokenRequest = async (client: TokenClient, person?: string): Promise<{ ms: number; status: number; body: { access_token?: string; error_description?: string } }> => {
      const started = performance.now();
      const response = await fetch(tokenUrl, {
        method: 'POST',
        headers: { authorization: `Basic ${Buffer.from(`${client.clientId}:${client.secret}`).toString('base64')}` },
        body: new URLSearchParams(person ? { grant_type: 'password', username: person, password: PERSON_PASSWORD } : { grant_type: 'client_credentials' }),
      });
      const body = (await response.json()) as { access_token?: string; error_description?: string };
      return { ms: performance.now() - started, status: response.status, body };
    };
    const issue = async (client: TokenClient, person?: string): Promise<{ ms: number; claims: Record<string, unknown> }> => {
      const { ms, status, body } = await tokenRequest(client, person);
      if (status !== 200 || !body.access_token) throw new Error(`${client.clientId}: token endpoint answered ${status} ${body.error_description ?? ''}`);
      return { ms, claims: JSON.parse(Buffer.from(body.access_token.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown> };
    };
    /**
     * Both clients, `requests` times each, alternately in blocks (of one request unless `blocks` says otherwise), each
     * pair of blocks in the other order every time; `blocks.enter` runs, untimed, whenever the other client's turn
     * begins. A client's req/s is over its own requests' time only, so neither the other's nor a switch counts.
     */
    const paired: Paired = async (a, b, personOf, blocks) => {
      const size = blocks?.size ?? 1;
      const pass = async (count: number) => {
        const latencies = [new Float64Array(count), new Float64Array(count)] as const;
        const fallbacks = [0, 0];
        let current: TokenClient | undefined;
        for (let start = 0, pair = 0; start < count; start += size, pair++) {
          for (const which of pair % 2 === 0 ? ([0, 1] as const) : ([1, 0] as const)) {
            const client = which === 0 ? a : b;
            if (blocks && client !== current) await blocks.enter(client);
            current = client;
            for (let i = start; i < Math.min(count, start + size); i++) {
              const { ms, claims: issued } = await issue(client, personOf(client));
              latencies[which][i] = ms;
              if (issued.claims_source !== undefined && issued.claims_source !== 'registry') fallbacks[which]!++;
            }
          }
        }
        const seconds = (which: 0 | 1) => latencies[which].reduce((sum, ms) => sum + ms, 0) / 1000;
        return [summarizeLatencies(latencies[0], fallbacks[0]!, seconds(0)), summarizeLatencies(latencies[1], fallbacks[1]!, seconds(1))] as const;
      };
      await pass(options.warmup);
      return pass(options.requests);
    };
    // Measuring the fallback would say nothing about the registry call: the mapper must have reached the registry.
    const { claims } = await issue(withMapper);
    if (claims.claims_source !== 'registry' || claims.tenant_id !== options.tenantId) {
      throw new Error(`the mapper did not get the claims from the registry: ${JSON.stringify(claims)}`);
    }
    const [withoutMapper, withMapperResult] = await paired(without, withMapper, () => undefined);

    log('the sign-in policy on and off: password grants of a member each');
    // The mapper's pair can outlast the admin token.
    await authenticate();
    const policyClients = { on: await makeClient('bench-token-sign-in-policy-on', true, 'password'), off: await makeClient('bench-token-sign-in-policy-off', true, 'password') };
    const [onResult, offResult] = await measureSignInPolicy({ admin, authenticate }, { ...options, realm: keycloak.realm }, policyClients, tokenRequest, issue, paired);
    return { withoutMapper, withMapper: withMapperResult, policyOff: offResult, policyOn: onResult };
  } finally {
    await keycloak.stop();
  }
}

type TokenRequest = (client: TokenClient, person?: string) => Promise<{ ms: number; status: number; body: { access_token?: string; error_description?: string } }>;
type Issue = (client: TokenClient, person?: string) => Promise<{ ms: number; claims: Record<string, unknown> }>;
type Paired = (
  a: TokenClient,
  b: TokenClient,
  personOf: (client: TokenClient) => string | undefined,
  blocks?: { size: number; enter: (client: TokenClient) => Promise<void> },
) => Promise<readonly [LoadResult, LoadResult]>;

/**
 * The sign-in policy's pair: a member of each of two tenants, the realm's sign-in client policy enabled for the on
 * client's blocks and disabled for the off client's (checked first: a second factor required of the on tenant refuses
 * its member with the policy enabled and lets the same member through with it disabled), then paired runs.
 */
async function measureSignInPolicy(
  keycloakAdmin: { admin: KeycloakAdminClient; authenticate: () => Promise<void> },
  options: { serviceUrl: string; databaseUrl: string; signInTenantIds: [string, string]; realm: string },
  clients: { on: TokenClient; off: TokenClient },
  tokenRequest: TokenRequest,
  issue: Issue,
  paired: Paired,
): Promise<readonly [LoadResult, LoadResult]> {
  const [onTenant, offTenant] = options.signInTenantIds;
  const { on: policyOn, off: policyOff } = clients;
  const { admin, authenticate } = keycloakAdmin;
  // Keycloak's brute-force detection locked the measured member out (user_temporarily_disabled) within seconds of
  // password grants back to back, with no failed login of theirs: it is off for this pair, on both sides alike.
  await admin.realms.update({ realm: options.realm }, { bruteForceProtected: false });
  const persons = new Map<string, string>([
    [policyOn.clientId, await personOf(admin, options.databaseUrl, onTenant)],
    [policyOff.clientId, await personOf(admin, options.databaseUrl, offTenant)],
  ]);
  const { policies = [] } = await admin.clientPolicies.listPolicies({ includeGlobalPolicies: false });
  if (!policies.some((policy) => policy.name === SIGN_IN_CLIENT_POLICY)) throw new Error(`the realm has no client policy ${SIGN_IN_CLIENT_POLICY}`);
  const enablePolicy = async (enabled: boolean) => {
    // Switches come further apart than the admin token's life.
    await authenticate();
    await admin.clientPolicies.updatePolicy({ policies: policies.map((policy) => (policy.name === SIGN_IN_CLIENT_POLICY ? { ...policy, enabled } : policy)) });
  };
  const patchSignIn = async (tenantId: string, signIn: Record<string, unknown>) => {
    const response = await fetch(`${options.serviceUrl}/v1/tenants/${tenantId}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ settings: { sign_in: signIn } }),
    });
    if (response.status !== 200) throw new Error(`PATCH of the sign-in policy answered ${response.status}`);
  };
  let last = '';
  /** Waits for the on tenant's member at the on client to get the answer `wanted` ("200", "400 mfa_required"). */
  const answered = (wanted: string, what: string) =>
    until(async () => {
      const { status, body } = await tokenRequest(policyOn, persons.get(policyOn.clientId));
      last = `${status} ${body.error_description ?? ''}`.trim();
      return last === wanted ? true : undefined;
    }, what).catch((error: Error) => {
      throw new Error(`${error.message} (last answer: ${last})`);
    });
  // Proof that the switch is the executor's: with a second factor required of the on tenant, its member is refused
  // while the policy is enabled and let through, at the very same client, while it is disabled.
  await patchSignIn(onTenant, { mfa: 'required' });
  await enablePolicy(true);
  await answered('400 mfa_required', 'the enabled policy refusing a sign-in without a second factor');
  await enablePolicy(false);
  await answered('200', 'the disabled policy letting that sign-in through');
  await patchSignIn(onTenant, { mfa: 'off', session_max_hours: 8 });
  await enablePolicy(true);
  await answered('200', "the enabled policy allowing a sign-in within the tenant's policy");
  for (const client of [policyOn, policyOff]) {
    const { claims: person } = await issue(client, persons.get(client.clientId));
    if (person.claims_source !== 'registry') throw new Error(`${client.clientId}: the mapper did not get the claims from the registry: ${JSON.stringify(person)}`);
  }
  return paired(policyOn, policyOff, (client) => persons.get(client.clientId), {
    size: POLICY_BLOCK,
    enter: async (client) => {
      await enablePolicy(client === policyOn);
      // Untimed: the first token after the switch is the one that loads the changed realm.
      await issue(client, persons.get(client.clientId));
    },
  });
}

/** Polls `check` every 200 ms for up to 10 s (the registry's change in force at Keycloak). */
async function until<T>(check: () => Promise<T | undefined>, what: string): Promise<T> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** A person of the realm with a password, made an active member of the tenant in the registry's own tables. */
async function personOf(admin: KeycloakAdminClient, databaseUrl: string, tenantId: string): Promise<string> {
  const username = `bench-person-${randomUUID()}@bench.example`;
  const { id } = await admin.users.create({
    username,
    email: username,
    emailVerified: true,
    firstName: 'Bench',
    lastName: 'Person',
    enabled: true,
    attributes: { tenant_id: [tenantId] },
    credentials: [{ type: 'password', value: PERSON_PASSWORD, temporary: false }],
  });
  await insertMember(databaseUrl, tenantId, id, username);
  return username;
}

/** An active member row, written straight into the bench's database (its service runs the simulated provider). */
async function insertMember(databaseUrl: string, tenantId: string, userId: string, email: string): Promise<void> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    await db.query(
      `insert into members (tenant_id, user_id, email, name, status, source, created_at, updated_at)
       values ($1, $2, $3, 'Bench Member', 'active', 'provisioning', now(), now()) on conflict do nothing`,
      [tenantId, userId, email],
    );
  } finally {
    await db.end();
  }
}

/** The rows of --keycloak, printed after the main table: both clients, and what the mapper adds; then the policy's pair. */
export function formatTokenIssuance(result: TokenIssuance): string {
  const { withoutMapper: a, withMapper: b, policyOff: off, policyOn: on } = result;
  const added = b.p50 - a.p50;
  const pass = added <= 5 && b.errors === 0;
  const speed = on.rps / off.rps;
  const signed = (ms: number) => `${ms >= 0 ? '+' : ''}${ms.toFixed(2)}`;
  const row = (name: string, r: LoadResult, fallbacks: string) => [name, String(r.requests), r.rps.toFixed(0), r.p50.toFixed(2), r.p99.toFixed(2), fallbacks, '—', '—'];
  const rows = [
    ['scenario', 'requests', 'req/s', 'p50 ms', 'p99 ms', 'fallbacks', 'target', 'result'],
    row(`${TOKEN_ROW}, client without the mapper, 1 connection`, a, '—'),
    row(`${TOKEN_ROW}, client with tenant-registry-claims`, b, String(b.errors)),
    [
      `  added by the mapper (with ÷ without: p50 ${(b.p50 / a.p50).toFixed(2)}×, p99 ${(b.p99 / a.p99).toFixed(2)}×)`,
      '',
      '',
      signed(added),
      signed(b.p99 - a.p99),
      '',
      'p50 +<= 5 ms, no fallback',
      pass ? 'PASS' : 'MISS',
    ],
    row(`${SIGN_IN_ROW}, sign-in policy off, 1 connection`, off, String(off.errors)),
    row(`${SIGN_IN_ROW}, sign-in policy on`, on, String(on.errors)),
    [
      `  with the policy on ÷ off: req/s ${speed.toFixed(2)}× (p50 ${(on.p50 / off.p50).toFixed(2)}×, p99 ${(on.p99 / off.p99).toFixed(2)}×)`,
      '',
      `${speed.toFixed(2)}×`,
      signed(on.p50 - off.p50),
      signed(on.p99 - off.p99),
      '',
      'req/s >= 0.9× off, no fallback',
      speed >= 0.9 && on.errors === 0 && off.errors === 0 ? 'PASS' : 'MISS',
    ],
  ];
  const numeric = (i: number) => i >= 1 && i <= 5;
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => (numeric(i) ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join(' | ')} |`;
  const rule = `|${widths.map((w, i) => (numeric(i) ? `${'-'.repeat(w + 1)}:` : '-'.repeat(w + 2))).join('|')}|`;
  return `${[line(rows[0]!), rule, ...rows.slice(1).map(line)].join('\n')}\n\n`;
}
