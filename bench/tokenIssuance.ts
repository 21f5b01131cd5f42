/**
 * `npm run bench -- --keycloak`: what the tenant-registry-claims mapper adds to token issuance. Starts the project's
 * Keycloak (platform/keycloakServer.ts) with its mapper pointed at the benchmarked service, makes two confidential
 * clients that differ only in the mapper, and has each issue client-credentials tokens for a service-account user of a
 * seeded tenant, alternately, one request at a time, so both see the same machine at the same moments.
 */
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import KeycloakAdminClient from '@keycloak/keycloak-admin-client';
import { startKeycloak } from '../platform/keycloakServer.ts';
import { createLogger } from '../platform/logger.ts';
import { summarizeLatencies, type LoadResult } from './loadRun.ts';

export const TOKEN_ROW = 'token issuance (client credentials)';

type TokenClient = { clientId: string; secret: string };

export async function measureTokenIssuance(options: {
  serviceUrl: string;
  tenantId: string;
  dataDir: string;
  requests: number;
  warmup: number;
  log: (message: string) => void;
}): Promise<{ withoutMapper: LoadResult; withMapper: LoadResult }> {
  const { log } = options;
  log('starting Keycloak for the token issuance rows (a minute or two)');
  const keycloak = await startKeycloak(
    // The bench's clients send no e-mail; the realm needs an SMTP address all the same.
    { smtp: { host: '127.0.0.1', port: 9 }, logFile: resolve(options.dataDir, 'keycloak.log'), registryUrl: options.serviceUrl },
    createLogger('warn', 'bench-keycloak'),
  );
  try {
    const admin = new KeycloakAdminClient({ baseUrl: keycloak.url, realmName: 'master' });
    await admin.auth({ grantType: 'password', clientId: 'admin-cli', username: keycloak.bootstrapAdmin.username, password: keycloak.bootstrapAdmin.password });
    admin.setConfig({ realmName: keycloak.realm });
    const makeClient = async (clientId: string, withMapper: boolean): Promise<TokenClient> => {
      const secret = randomBytes(24).toString('base64url');
      const { id } = await admin.clients.create({
        clientId,
        secret,
        publicClient: false,
        serviceAccountsEnabled: true,
        standardFlowEnabled: false,
        directAccessGrantsEnabled: false,
        protocolMappers: withMapper
          ? [
              {
                name: 'tenant registry claims',
                protocol: 'openid-connect',
                protocolMapper: 'tenant-registry-claims',
                // No service client: the benchmarked service runs without AUTH_ENABLED.
                config: { 'registry.url': options.serviceUrl, 'timeout.ms': '500', 'access.token.claim': 'true' },
              },
            ]
          : [],
      });
      const user = await admin.clients.getServiceAccountUser({ id });
      await admin.users.update({ id: user.id! }, { ...user, attributes: { ...user.attributes, tenant_id: [options.tenantId] } });
      return { clientId, secret };
    };
    const without = await makeClient('bench-token-without-mapper', false);
    const withMapper = await makeClient('bench-token-with-claims-mapper', true);

    const tokenUrl = `${keycloak.realmUrl}/protocol/openid-connect/token`;
    const issue = async (client: TokenClient): Promise<{ ms: number; claims: Record<string, unknown> }> => {
      const started = performance.now();
      const response = await fetch(tokenUrl, {
        method: 'POST',
        headers: { authorization: `Basic ${Buffer.from(`${client.clientId}:${client.secret}`).toString('base64')}` },
        body: new URLSearchParams({ grant_type: 'client_credentials' }),
      });
      const body = (await response.json()) as { access_token?: string };
      const ms = performance.now() - started;
      if (response.status !== 200 || !body.access_token) throw new Error(`${client.clientId}: token endpoint answered ${response.status}`);
      return { ms, claims: JSON.parse(Buffer.from(body.access_token.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown> };
    };
    // Measuring the fallback would say nothing about the registry call: the mapper must have reached the registry.
    const { claims } = await issue(withMapper);
    if (claims.claims_source !== 'registry' || claims.tenant_id !== options.tenantId) {
      throw new Error(`the mapper did not get the claims from the registry: ${JSON.stringify(claims)}`);
    }
    for (let i = 0; i < options.warmup; i++) {
      await issue(without);
      await issue(withMapper);
    }
    const latencies = { without: new Float64Array(options.requests), with: new Float64Array(options.requests) };
    let fallbacks = 0;
    const started = performance.now();
    for (let i = 0; i < options.requests; i++) {
      // Alternating, and each pair in the other order every time, so neither client always goes first.
      const pair = i % 2 === 0 ? ([without, withMapper] as const) : ([withMapper, without] as const);
      for (const client of pair) {
        const { ms, claims: issued } = await issue(client);
        if (client === withMapper) {
          latencies.with[i] = ms;
          if (issued.claims_source !== 'registry') fallbacks++;
        } else {
          latencies.without[i] = ms;
        }
      }
    }
    const seconds = (performance.now() - started) / 1000;
    return {
      withoutMapper: summarizeLatencies(latencies.without, 0, seconds / 2),
      withMapper: summarizeLatencies(latencies.with, fallbacks, seconds / 2),
    };
  } finally {
    await keycloak.stop();
  }
}

/** The rows of --keycloak, printed after the main table: both clients, and what the mapper adds. */
export function formatTokenIssuance(result: { withoutMapper: LoadResult; withMapper: LoadResult }): string {
  const { withoutMapper: a, withMapper: b } = result;
  const added = b.p50 - a.p50;
  const pass = added <= 5 && b.errors === 0;
  const rows = [
    ['scenario', 'requests', 'p50 ms', 'p99 ms', 'fallbacks', 'target', 'result'],
    [`${TOKEN_ROW}, client without the mapper, 1 connection`, String(a.requests), a.p50.toFixed(2), a.p99.toFixed(2), '—', '—', '—'],
    [`${TOKEN_ROW}, client with tenant-registry-claims`, String(b.requests), b.p50.toFixed(2), b.p99.toFixed(2), String(b.errors), '—', '—'],
    [
      `  added by the mapper (with ÷ without: p50 ${(b.p50 / a.p50).toFixed(2)}×, p99 ${(b.p99 / a.p99).toFixed(2)}×)`,
      '',
      `+${added.toFixed(2)}`,
      `+${(b.p99 - a.p99).toFixed(2)}`,
      '',
      'p50 +<= 5 ms, no fallback',
      pass ? 'PASS' : 'MISS',
    ],
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => (i >= 1 && i <= 4 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join(' | ')} |`;
  const rule = `|${widths.map((w, i) => (i >= 1 && i <= 4 ? `${'-'.repeat(w + 1)}:` : '-'.repeat(w + 2))).join('|')}|`;
  return `${[line(rows[0]!), rule, ...rows.slice(1).map(line)].join('\n')}\n\n`;
}
