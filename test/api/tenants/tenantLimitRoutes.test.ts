import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { eventually } from '../../support/eventually.ts';
import { startOidcIssuer, type OidcIssuer } from '../../support/oidcIssuer.ts';
import { startTestService, uniqueSlug, type TestResponse, type TestService } from '../../support/testService.ts';

/** The per-tenant limits (SPEC-EXTENSIONS §13), each set small: past one, 409 `limit_reached` and nothing is made. */
let issuer: OidcIssuer;
let limited: TestService;
/** Only the hourly sends limited, to 3. */
let hourly: TestService;
beforeAll(async () => {
  issuer = await startOidcIssuer();
  limited = await startTestService({
    TENANT_DIRECTORIES_LIMIT: 2,
    TENANT_SSO_CONNECTIONS_LIMIT: 2,
    TENANT_DOMAINS_LIMIT: 2,
    TENANT_PENDING_INVITATIONS_LIMIT: 2,
    SSO_ISSUER_ALLOWED_HOSTS: ['127.0.0.1'],
  });
  hourly = await startTestService({ TENANT_INVITATIONS_SENT_PER_HOUR_LIMIT: 3 });
});
afterAll(async () => {
  await limited?.close();
  await hourly?.close();
  await issuer?.close();
});

const newTenant = async (on = limited) => (await on.request('POST', '/v1/tenants', { slug: uniqueSlug('lim'), name: 'Limits' })).body.tenant as { id: string; slug: string };
const count = async (table: string, tenantId: string, on = limited) =>
  Number((await on.orm.em.fork().execute<{ n: string }[]>(`select count(*) as n from ${table} where tenant_id = ?`, [tenantId]))[0]!.n);
const actionsOf = async (tenantId: string, prefix: string, on = limited) =>
  ((await on.request('GET', `/v1/audit?tenant_id=${tenantId}&limit=500`)).body.items as { action: string }[]).map((e) => e.action).filter((a) => a.startsWith(prefix));

function expectLimitReached(res: TestResponse, limit: string) {
  expect(res.status).toBe(409);
  expect(res.body).toEqual({ error: 'limit_reached', message: expect.stringContaining('limit'), limit });
}

/** One make of each kind, for tenant `t` (the i-th of its kind). */
const makes = {
  directories: (t: string) => limited.request('POST', `/v1/tenants/${t}/directories`, {}),
  sso_connections: (t: string, i: number) => limited.request('POST', `/v1/tenants/${t}/sso-connections`, { issuer: issuer.issuer, client_id: `client-${i}`, client_secret: 'secret' }),
  domains: (t: string, i: number) => limited.request('POST', `/v1/tenants/${t}/domains`, { domain: `d${i}-${uniqueSlug('lim')}.test` }),
  pending_invitations: (t: string, i: number) => limited.request('POST', `/v1/tenants/${t}/invitations`, { email: `person-${i}@limits.example` }),
};
const tableOf = { directories: 'directories', sso_connections: 'sso_connections', domains: 'domains', pending_invitations: 'invitations' } as const;
const createdAction = { directories: 'directory.created', sso_connections: 'sso.connection_created', domains: 'domain.added', pending_invitations: 'invitation.created' } as const;

describe('per-tenant limits of what a tenant holds', () => {
  for (const limit of Object.keys(makes) as (keyof typeof makes)[]) {
    it(`${limit}: a tenant at its limit is refused the next with 409 limit_reached naming ${limit}; nothing is made, nothing audited, another tenant is not held back`, async () => {
      const tenant = await newTenant();
      for (const i of [0, 1]) expect((await makes[limit](tenant.id, i)).status).toBe(201);
      expectLimitReached(await makes[limit](tenant.id, 2), limit);
      expect(await count(tableOf[limit], tenant.id)).toBe(2);
      expect((await actionsOf(tenant.id, createdAction[limit].split('.')[0]!)).filter((a) => a === createdAction[limit])).toHaveLength(2);
      expect((await makes[limit]((await newTenant()).id, 0)).status).toBe(201);
    });

    it(`${limit}: two makes at once at one below the limit: exactly one is made, the other is 409 limit_reached`, async () => {
      const tenant = await newTenant();
      expect((await makes[limit](tenant.id, 0)).status).toBe(201);
      const answers = await inRaceOnTenant(tenant.id, () => [makes[limit](tenant.id, 1), makes[limit](tenant.id, 2)]);
      expect(answers.map((a) => a.status).sort()).toEqual([201, 409]);
      expectLimitReached(answers.find((a) => a.status === 409)!, limit);
      expect(await count(tableOf[limit], tenant.id)).toBe(2);
    });
  }

  it('a directory deleted, a domain removed, an invitation revoked frees its place', async () => {
    const tenant = await newTenant();
    const directories = [await makes.directories(tenant.id), await makes.directories(tenant.id)];
    expect((await limited.request('DELETE', `/v1/directories/${directories[0]!.body.id}`)).status).toBe(204);
    expect((await makes.directories(tenant.id)).status).toBe(201);
    const domains = [await makes.domains(tenant.id, 0), await makes.domains(tenant.id, 1)];
    expect((await limited.request('DELETE', `/v1/domains/${domains[0]!.body.id}`)).status).toBe(204);
    expect((await makes.domains(tenant.id, 2)).status).toBe(201);
    const invitations = [await makes.pending_invitations(tenant.id, 0), await makes.pending_invitations(tenant.id, 1)];
    expect((await limited.request('POST', `/v1/invitations/${invitations[0]!.body.id}/revoke`)).status).toBe(200);
    expect((await makes.pending_invitations(tenant.id, 2)).status).toBe(201);
  });

  it('a pending invitation of the same address is answered again at the limit (200, nothing made)', async () => {
    const tenant = await newTenant();
    for (const i of [0, 1]) expect((await makes.pending_invitations(tenant.id, i)).status).toBe(201);
    expect((await makes.pending_invitations(tenant.id, 1)).status).toBe(200);
    expect(await count('invitations', tenant.id)).toBe(2);
  });
});

describe('invitations sent per hour (TENANT_INVITATIONS_SENT_PER_HOUR_LIMIT)', () => {
  const invite = (tenantId: string, email: string, extra: Record<string, unknown> = {}) => hourly.request('POST', `/v1/tenants/${tenantId}/invitations`, { email, ...extra });
  const resend = (id: string) => hourly.request('POST', `/v1/invitations/${id}/resend`);

  it('every send counts (a creation, one without an e-mail, a resend); past the limit a resend and a creation are 409 limit_reached and nothing is sent or made', async () => {
    const tenant = await newTenant(hourly);
    const first = await invite(tenant.id, 'one@hourly.example');
    expect(first.status).toBe(201);
    const linkOnly = await invite(tenant.id, 'two@hourly.example', { send_email: false });
    expect(linkOnly.status).toBe(201);
    expect((await resend(first.body.id)).status).toBe(200);
    const refusedResend = await resend(linkOnly.body.id);
    expectLimitReached(refusedResend, 'invitations_sent_per_hour');
    expectLimitReached(await invite(tenant.id, 'three@hourly.example'), 'invitations_sent_per_hour');
    expect(await count('invitations', tenant.id, hourly)).toBe(2);
    expect((await hourly.request('GET', `/v1/invitations/${linkOnly.body.id}`)).body.send_count).toBe(1);
    expect(await actionsOf(tenant.id, 'invitation.', hourly)).toEqual(['invitation.resent', 'invitation.created', 'invitation.created']);
    expect((await invite((await newTenant(hourly)).id, 'one@hourly.example')).status).toBe(201);
  });

  it('a send older than an hour no longer counts, and the next send forgets it', async () => {
    const tenant = await newTenant(hourly);
    for (const email of ['a@hourly.example', 'b@hourly.example', 'c@hourly.example']) expect((await invite(tenant.id, email)).status).toBe(201);
    expectLimitReached(await invite(tenant.id, 'd@hourly.example'), 'invitations_sent_per_hour');
    await hourly.orm.em.fork().execute(`update invitation_sends set sent_at = sent_at - interval '61 minutes' where tenant_id = ?`, [tenant.id]);
    expect((await invite(tenant.id, 'd@hourly.example')).status).toBe(201);
    expect(Number((await hourly.orm.em.fork().execute<{ n: string }[]>('select count(*) as n from invitation_sends where tenant_id = ?', [tenant.id]))[0]!.n)).toBe(1);
  });

  it('two sends at once at one below the limit: exactly one is sent, the other is 409 limit_reached', async () => {
    const tenant = await newTenant(hourly);
    const first = await invite(tenant.id, 'first@hourly.example');
    expect((await resend(first.body.id)).status).toBe(200);
    const answers = await inRaceOnTenant(tenant.id, () => [resend(first.body.id), invite(tenant.id, 'second@hourly.example')]);
    expect(answers.filter((a) => a.status === 200 || a.status === 201)).toHaveLength(1);
    expectLimitReached(answers.find((a) => a.status === 409)!, 'invitations_sent_per_hour');
    expect(Number((await hourly.orm.em.fork().execute<{ n: string }[]>('select count(*) as n from invitation_sends where tenant_id = ?', [tenant.id]))[0]!.n)).toBe(3);
  });
});

describe('the portal shows a limit reached as a readable message', () => {
  it('adding a domain past the limit answers the form with the limit in words beside the field, and adds nothing', async () => {
    const tenant = await newTenant();
    for (const i of [0, 1]) expect((await makes.domains(tenant.id, i)).status).toBe(201);
    const { url } = (await limited.request('POST', `/v1/tenants/${tenant.id}/portal-links`, { intent: 'domains' })).body as { url: string };
    const opened = await fetch(`${limited.baseUrl}/portal/open`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: limited.baseUrl }, body: new URLSearchParams({ token: new URL(url).searchParams.get('token')! }).toString() });
    const cookie = opened.headers.get('set-cookie')!.split(';')[0]!;
    const page = await (await fetch(`${limited.baseUrl}${opened.headers.get('location')!}`, { headers: { cookie } })).text();
    const csrf = /name="_csrf" value="([^"]+)"/.exec(page)![1]!;
    const res = await fetch(`${limited.baseUrl}/portal/domains/add`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', origin: limited.baseUrl },
      body: new URLSearchParams({ _csrf: csrf, domain: `third-${tenant.slug}.test` }).toString(),
    });
    expect(res.status).toBe(400);
    const refused = await res.text();
    expect(refused).toContain('id="domain-error"');
    expect(refused).toContain('this tenant has reached its limit of 2 domains');
    expect(await count('domains', tenant.id)).toBe(2);
  });
});

/**
 * Holds the tenant's row locked while `start` sends its requests, until each of them waits on a lock, then lets them
 * go at once: two requests racing for the last place. Counted outside a lock of the tenant, both would see room.
 */
async function inRaceOnTenant(tenantId: string, start: () => Promise<TestResponse>[]): Promise<TestResponse[]> {
  const holder = new pg.Client({ connectionString: inject('databaseUrl') });
  await holder.connect();
  try {
    await holder.query('begin');
    await holder.query('select 1 from tenants where id = $1 for update', [tenantId]);
    const racing = start();
    // Asked on another connection: within the holder's transaction pg_stat_activity is a snapshot of its start.
    await eventually(async () => {
      const [waiting] = await limited.orm.em.fork().execute<{ n: string }[]>(`select count(*) as n from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database()`);
      return Number(waiting!.n) >= 2 || undefined;
    }, 10_000, 'both requests waiting on a lock');
    await holder.query('commit');
    return await Promise.all(racing);
  } finally {
    await holder.end();
  }
}
