import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServicePair, type ServicePair } from '../../support/servicePair.ts';
import { startTestService, uniqueSlug } from '../../support/testService.ts';

/** The admin portal over HTTP (SPEC-EXTENSIONS §11): links, sessions, and what a session may not do. */
let pair: ServicePair;
beforeAll(async () => {
  pair = await startServicePair();
});
afterAll(() => pair?.close());

const sql = (text: string, values: unknown[] = []) => pair.service.orm.em.fork().execute<Record<string, any>[]>(text, values);
const newTenant = async (name = 'Portal') => (await pair.service.request('POST', '/v1/tenants', { slug: uniqueSlug('portal'), name })).body.tenant as { id: string; slug: string };
const linkFor = async (tenantId: string, intent: string) => (await pair.service.request('POST', `/v1/tenants/${tenantId}/portal-links`, { intent })).body as { url: string; expires_at: string };
const tokenOf = (url: string) => new URL(url).searchParams.get('token')!;

/** A raw request (no redirect followed), with the cookie and a form body if given. */
async function raw(method: string, path: string, options: { cookie?: string; form?: Record<string, string | string[]>; origin?: string } = {}) {
  const body = options.form ? new URLSearchParams(Object.entries(options.form).flatMap(([k, v]) => (Array.isArray(v) ? v : [v]).map((x): [string, string] => [k, x]))).toString() : undefined;
  return fetch(`${pair.service.baseUrl}${path}`, {
    method,
    redirect: 'manual',
    headers: {
      ...(options.cookie ? { cookie: options.cookie } : {}),
      ...(body !== undefined ? { 'content-type': 'application/x-www-form-urlencoded', origin: options.origin ?? pair.service.baseUrl } : {}),
    },
    body,
  });
}

/** Opens a link as the interstitial's button does: the session's cookie and its form token from the page it lands on. */
async function openSession(url: string) {
  const opened = await raw('POST', '/portal/open', { form: { token: tokenOf(url) } });
  expect(opened.status).toBe(303);
  const cookie = opened.headers.get('set-cookie')!.split(';')[0]!;
  const page = await (await raw('GET', opened.headers.get('location')!, { cookie })).text();
  const csrf = /name="_csrf" value="([^"]+)"/.exec(page)![1]!;
  return { cookie, csrf, setCookie: opened.headers.get('set-cookie')!, location: opened.headers.get('location')! };
}

describe('portal links', () => {
  it('POST /v1/tenants/{id}/portal-links answers a single-use link valid for 5 minutes, audited as portal.link_created; an unknown intent is 400', async () => {
    const tenant = await newTenant();
    const res = await pair.service.request('POST', `/v1/tenants/${tenant.id}/portal-links`, { intent: 'domains', return_url: 'https://app.example.com/settings' });
    expect(res.status).toBe(201);
    expect(res.body.url).toMatch(/\/portal\/open\?token=[A-Za-z0-9_-]{43}$/);
    const minutes = (Date.parse(res.body.expires_at) - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(4.9);
    expect(minutes).toBeLessThanOrEqual(5);
    const [event] = (await pair.service.request('GET', `/v1/audit?tenant_id=${tenant.id}&action=portal.link_created`)).body.items;
    expect(event).toMatchObject({ target_type: 'portal_link', metadata: { intent: 'domains', return_url: 'https://app.example.com/settings' } });
    expect(JSON.stringify(event)).not.toContain(tokenOf(res.body.url));
    expect((await pair.service.request('POST', `/v1/tenants/${tenant.id}/portal-links`, { intent: 'billing' })).status).toBe(400);
    expect((await pair.service.request('POST', `/v1/tenants/${tenant.id}/portal-links`, { intent: 'sso', return_url: 'javascript:alert(1)' })).status).toBe(400);
    expect((await pair.service.request('POST', '/v1/tenants/00000000-0000-4000-8000-000000000001/portal-links', { intent: 'sso' })).status).toBe(404);
  });

  it('a link opens once: its GET only shows the button, the button opens a session (HttpOnly, SameSite=Strict cookie), a second press says it was used', async () => {
    const tenant = await newTenant();
    const { url } = await linkFor(tenant.id, 'invitations');
    for (let i = 0; i < 2; i += 1) expect((await raw('GET', new URL(url).pathname + new URL(url).search)).status).toBe(200);
    const { setCookie, location } = await openSession(url);
    expect(location).toBe('/portal/invitations');
    expect(setCookie).toMatch(/httponly/i);
    expect(setCookie).toMatch(/samesite=strict/i);
    expect(setCookie).toMatch(/path=\/portal/i);
    const again = await raw('POST', '/portal/open', { form: { token: tokenOf(url) } });
    expect(again.status).toBe(410);
    expect(await again.text()).toContain('This link has been used');
    const [opened] = (await pair.service.request('GET', `/v1/audit?tenant_id=${tenant.id}&action=portal.link_opened`)).body.items;
    expect(opened).toMatchObject({ actor_type: 'portal', metadata: { intent: 'invitations' } });
  });

  it('a link unopened within its minutes says it has expired; a made-up one that it is not valid', async () => {
    const tenant = await newTenant();
    const { url } = await linkFor(tenant.id, 'members');
    await sql(`update portal_links set expires_at = now() - interval '1 second' where tenant_id = ?`, [tenant.id]);
    const expired = await raw('POST', '/portal/open', { form: { token: tokenOf(url) } });
    expect(expired.status).toBe(410);
    expect(await expired.text()).toContain('This link has expired');
    expect((await raw('POST', '/portal/open', { form: { token: 'made-up' } })).status).toBe(404);
  });

  it('every portal answer refuses to be framed and to be cached, and loads nothing from elsewhere', async () => {
    const res = await raw('GET', '/portal/open?token=x');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(res.headers.get('cache-control')).toBe('no-store');
  });
});

describe('portal sessions', () => {
  it("the domains page's hint suggests a domain the service takes: adding the very suggestion succeeds", async () => {
    const tenant = await newTenant();
    const { cookie, csrf } = await openSession((await linkFor(tenant.id, 'domains')).url);
    const page = await (await raw('GET', '/portal/domains', { cookie })).text();
    const hint = /<p class="hint" id="domain-hint">([^<]+)<\/p>/.exec(page)?.[1];
    const suggested = hint && /such as ([a-z0-9.-]+\.[a-z]+)/.exec(hint)?.[1];
    expect(suggested, hint).toBeTruthy();
    const added = await raw('POST', '/portal/domains/add', { cookie, form: { domain: suggested!, _csrf: csrf } });
    expect(added.status).toBe(303);
    expect(await sql('select domain from domains where tenant_id = ?', [tenant.id])).toEqual([{ domain: suggested }]);
    // The API's refusal of a malformed name suggests one it takes too.
    const refused = await pair.service.request('POST', `/v1/tenants/${tenant.id}/domains`, { domain: 'not a domain' });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toContain(`such as ${suggested}`);
  });

  it("a form without the session's token, or sent from another site, changes nothing (403)", async () => {
    const tenant = await newTenant();
    const { cookie, csrf } = await openSession((await linkFor(tenant.id, 'invitations')).url);
    const email = `nobody@${tenant.slug}.example`;
    expect((await raw('POST', '/portal/invitations/invite', { cookie, form: { email } })).status).toBe(403);
    expect((await raw('POST', '/portal/invitations/invite', { cookie, form: { email, _csrf: 'wrong' } })).status).toBe(403);
    expect((await raw('POST', '/portal/invitations/invite', { cookie, form: { email, _csrf: csrf }, origin: 'https://evil.example' })).status).toBe(403);
    expect(await sql('select 1 from invitations where tenant_id = ?', [tenant.id])).toEqual([]);
  });

  it("a session reaches its own intent of its own tenant only: another intent's page, another tenant's invitation or member gets nothing", async () => {
    const mine = await newTenant('Mine');
    const theirs = await newTenant('Theirs');
    const invited = (await pair.service.request('POST', `/v1/tenants/${theirs.id}/invitations`, { email: `x@${theirs.slug}.example`, send_email: false })).body;
    const { cookie, csrf } = await openSession((await linkFor(mine.id, 'invitations')).url);
    expect((await raw('GET', '/portal/members', { cookie })).status).toBe(404);
    expect((await raw('GET', `/portal/invitations?tenant_id=${theirs.id}`, { cookie }).then((r) => r.text()))).not.toContain(`x@${theirs.slug}.example`);
    const revoke = await raw('POST', '/portal/invitations/revoke', { cookie, form: { _csrf: csrf, id: invited.id } });
    expect(revoke.status).toBe(400);
    expect((await pair.service.request('GET', `/v1/invitations/${invited.id}`)).body.state).toBe('pending');

    const member = await newTenant('Members');
    const { cookie: membersCookie, csrf: membersCsrf } = await openSession((await linkFor(member.id, 'members')).url);
    const userId = 'portal-foreign-user';
    await sql(`insert into members (tenant_id, user_id, email, name, status, source, created_at, updated_at) values (?, ?, 'f@x.example', 'F', 'active', 'registry', now(), now())`, [theirs.id, userId]);
    for (const action of ['deactivate', 'remove']) expect((await raw('POST', `/portal/members/${action}`, { cookie: membersCookie, form: { _csrf: membersCsrf, user_id: userId } })).status).toBe(400);
    expect((await raw('POST', '/portal/members/roles', { cookie: membersCookie, form: { _csrf: membersCsrf, user_id: userId, roles: 'MEMBER' } })).status).toBe(400);
    expect((await sql('select status from members where tenant_id = ? and user_id = ?', [theirs.id, userId]))[0]).toEqual({ status: 'active' });
  });

  it('a session unused for 30 minutes has ended; signing out ends it at once', async () => {
    const tenant = await newTenant();
    const first = await openSession((await linkFor(tenant.id, 'domains')).url);
    await sql(`update portal_sessions set last_seen_at = now() - interval '31 minutes' where tenant_id = ?`, [tenant.id]);
    const ended = await raw('GET', '/portal/domains', { cookie: first.cookie });
    expect(ended.status).toBe(401);
    expect(await ended.text()).toContain('Your session has ended');
    const second = await openSession((await linkFor(tenant.id, 'domains')).url);
    expect((await raw('POST', '/portal/sign-out', { cookie: second.cookie, form: { _csrf: second.csrf } })).status).toBe(200);
    expect((await raw('GET', '/portal/domains', { cookie: second.cookie })).status).toBe(401);
  });

  it('a session lives at most 8 hours whatever its activity, and ends for good (a deleted row)', async () => {
    const tenant = await newTenant();
    const busy = await openSession((await linkFor(tenant.id, 'domains')).url);
    await sql(`update portal_sessions set created_at = now() - interval '7 hours 58 minutes', last_seen_at = now() where tenant_id = ?`, [tenant.id]);
    expect((await raw('GET', '/portal/domains', { cookie: busy.cookie })).status).toBe(200);
    await sql(`update portal_sessions set created_at = now() - interval '8 hours 1 minute', last_seen_at = now() where tenant_id = ?`, [tenant.id]);
    const ended = await raw('GET', '/portal/domains', { cookie: busy.cookie });
    expect(ended.status).toBe(401);
    expect(await ended.text()).toContain('Your session has ended');
    expect(await sql('select 1 from portal_sessions where tenant_id = ?', [tenant.id])).toEqual([]);
  });

  it('a session ends when its tenant is frozen or archived: its next request is the ended page (401), changes nothing, and reactivating the tenant does not revive it', async () => {
    const frozen = await newTenant();
    const session = await openSession((await linkFor(frozen.id, 'invitations')).url);
    expect((await pair.service.request('POST', `/v1/tenants/${frozen.id}/cancel`, {})).body.status).toBe('frozen');
    const invite = await raw('POST', '/portal/invitations/invite', { cookie: session.cookie, form: { _csrf: session.csrf, email: `late@${frozen.slug}.example` } });
    expect(invite.status).toBe(401);
    expect(await invite.text()).toContain('Your session has ended');
    expect(await sql('select 1 from invitations where tenant_id = ?', [frozen.id])).toEqual([]);
    expect((await pair.service.request('POST', `/v1/tenants/${frozen.id}/activate`, {})).body.status).toBe('active');
    expect((await raw('GET', '/portal/invitations', { cookie: session.cookie })).status).toBe(401);

    const archived = await newTenant();
    const other = await openSession((await linkFor(archived.id, 'audit')).url);
    expect((await pair.service.request('POST', `/v1/tenants/${archived.id}/archive`, {})).body.status).toBe('archived');
    const page = await raw('GET', '/portal/audit', { cookie: other.cookie });
    expect(page.status).toBe(401);
    expect(await page.text()).toContain('Your session has ended');
    expect((await raw('GET', '/portal/audit/export?format=csv', { cookie: other.cookie })).status).toBe(401);
  });

  it('a refused form shows its error beside the field and keeps what was typed (400)', async () => {
    const tenant = await newTenant();
    const { cookie, csrf } = await openSession((await linkFor(tenant.id, 'invitations')).url);
    const res = await raw('POST', '/portal/invitations/invite', { cookie, form: { _csrf: csrf, email: 'not-an-address' } });
    expect(res.status).toBe(400);
    const page = await res.text();
    expect(page).toMatch(/<input id="email" name="email" type="email" value="not-an-address"[^>]*aria-describedby="email-error"[^>]*aria-invalid="true">/);
    expect(page).toContain('id="email-error"');
  });
});

describe('a portal link needs the scope of what it opens (AUTH_ENABLED)', () => {
  const asCaller = async (scope: string, tenantId: string, intent: string) =>
    pair.authenticated.request('POST', `/v1/tenants/${tenantId}/portal-links`, { intent }, { authorization: `Bearer ${await pair.issuer.sign({ aud: 'tenant-registry', azp: 'product', scope })}` });

  it('refuses an audit link to members:write without audit:read: 403, and no link is made', async () => {
    const tenant = await newTenant();
    const res = await asCaller('members:write', tenant.id, 'audit');
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: 'forbidden', message: expect.stringContaining('audit:read') });
    expect(await sql("select count(*)::int as n from portal_links where tenant_id = ?", [tenant.id])).toEqual([{ n: 0 }]);
  });

  it('makes an audit link for members:write with audit:read, and every other intent for members:write alone', async () => {
    const tenant = await newTenant();
    expect((await asCaller('members:write audit:read', tenant.id, 'audit')).status).toBe(201);
    for (const intent of ['members', 'invitations', 'domains', 'sso', 'directory']) expect((await asCaller('members:write', tenant.id, intent)).status, intent).toBe(201);
    expect((await asCaller('audit:read', tenant.id, 'audit')).status).toBe(403);
  });
});

describe("the portal's audit page shows the customer's events without the operator's details", () => {
  const OPERATOR_AGENT = 'OperatorConsole/7.1 (internal)';
  const INTERNAL = ['sales-owner-alice', 'ERP-4711-internal', 'cus_payment_0815'];

  async function tenantWithOperatorHistory() {
    const created = await pair.service.request('POST', '/v1/tenants', { slug: uniqueSlug('portal-audit'), name: 'Audited', sales_owner: INTERNAL[0] }, { 'user-agent': OPERATOR_AGENT });
    const tenant = created.body.tenant as { id: string; slug: string };
    await pair.service.request('POST', `/v1/tenants/${tenant.id}/activate`, { erp_customer_id: INTERNAL[1] }, { 'user-agent': OPERATOR_AGENT });
    await pair.service.request('PATCH', `/v1/tenants/${tenant.id}`, { name: 'Audited Renamed', payment_cust_id: INTERNAL[2], sales_owner: 'sales-owner-bob' }, { 'user-agent': OPERATOR_AGENT });
    const [stored] = await sql(`select source_ip from audit_events where tenant_id = ? and action = 'tenant.updated'`, [tenant.id]);
    expect(stored!.source_ip).toBeTruthy();
    return { tenant, operatorIp: stored!.source_ip as string };
  }

  it('the page lists the events (the rename included) with no client address, user agent, sales owner, ERP or payment id', async () => {
    const { tenant, operatorIp } = await tenantWithOperatorHistory();
    const { cookie } = await openSession((await linkFor(tenant.id, 'audit')).url);
    const page = await (await raw('GET', '/portal/audit', { cookie })).text();
    expect(page).toContain('tenant.updated');
    expect(page).toContain('Audited Renamed');
    for (const hidden of [OPERATOR_AGENT, operatorIp, ...INTERNAL, 'sales-owner-bob', 'sales_owner', 'erp_customer_id', 'payment_cust_id']) expect(page, hidden).not.toContain(hidden);
  });

  it('the CSV and NDJSON exports leave them out too', async () => {
    const { tenant, operatorIp } = await tenantWithOperatorHistory();
    const { cookie } = await openSession((await linkFor(tenant.id, 'audit')).url);
    const csv = await (await raw('GET', '/portal/audit/export?format=csv', { cookie })).text();
    const ndjson = await (await raw('GET', '/portal/audit/export?format=ndjson', { cookie })).text();
    const [header, ...rows] = csv.trim().split('\r\n');
    expect(header).toContain('source_ip');
    expect(rows.some((row) => row.includes('tenant.updated') && row.includes('Audited Renamed'))).toBe(true);
    expect(ndjson).toContain('Audited Renamed');
    for (const hidden of [OPERATOR_AGENT, operatorIp, ...INTERNAL, 'sales-owner-bob', 'sales_owner', 'erp_customer_id', 'payment_cust_id']) {
      expect(csv, hidden).not.toContain(hidden);
      expect(ndjson, hidden).not.toContain(hidden);
    }
  });
});

describe('behind a TLS proxy (PUBLIC_BASE_URL its https URL)', () => {
  const PUBLIC = 'https://registry.example.com';
  /** What a TLS proxy in front sends on: the browser's Origin, the scheme and host it was reached at. */
  const proxied = (base: string, url: string) =>
    fetch(`${base}/portal/open`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: PUBLIC, 'x-forwarded-proto': 'https', 'x-forwarded-host': 'registry.example.com', 'x-forwarded-for': '203.0.113.7' },
      body: new URLSearchParams({ token: tokenOf(url) }).toString(),
    });

  it('links are made on PUBLIC_BASE_URL; with TRUST_PROXY=true the form is taken and the cookie is Secure, without it every form is refused', async () => {
    const trusting = await startTestService({ PUBLIC_BASE_URL: PUBLIC, TRUST_PROXY: true });
    const untrusting = await startTestService({ PUBLIC_BASE_URL: PUBLIC, TRUST_PROXY: false });
    try {
      for (const [target, opensSession] of [[trusting, true], [untrusting, false]] as const) {
        const tenant = (await target.request('POST', '/v1/tenants', { slug: uniqueSlug('proxied'), name: 'Proxied' })).body.tenant as { id: string };
        const { url } = (await target.request('POST', `/v1/tenants/${tenant.id}/portal-links`, { intent: 'members' })).body as { url: string };
        expect(url.startsWith(`${PUBLIC}/portal/open?token=`)).toBe(true);
        const opened = await proxied(target.baseUrl, url);
        if (opensSession) {
          expect(opened.status).toBe(303);
          expect(opened.headers.get('set-cookie')).toMatch(/;\s*secure/i);
        } else {
          expect(opened.status).toBe(403);
          expect(await opened.text()).toContain('This form was sent from another site.');
          // A client that sends no Origin gets its session, on a cookie without Secure: the service thinks it is on http.
          const { url: another } = (await target.request('POST', `/v1/tenants/${tenant.id}/portal-links`, { intent: 'members' })).body as { url: string };
          const withoutOrigin = await fetch(`${target.baseUrl}/portal/open`, {
            method: 'POST',
            redirect: 'manual',
            headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin', 'x-forwarded-proto': 'https' },
            body: new URLSearchParams({ token: tokenOf(another) }).toString(),
          });
          expect(withoutOrigin.status).toBe(303);
          expect(withoutOrigin.headers.get('set-cookie')).not.toMatch(/;\s*secure/i);
        }
      }
    } finally {
      await trusting.close();
      await untrusting.close();
    }
  });
});
