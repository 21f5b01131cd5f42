import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAuthConfig } from '../../../api/auth/authConfig.ts';
import { capturedEmails } from '../../../store/simulatorControl.ts';
import { startActorStack, type ActorStack } from '../../support/actorStack.ts';
import { eventually } from '../../support/eventually.ts';
import { insertMember } from '../../support/memberRows.ts';
import { startOidcIssuer, type OidcIssuer } from '../../support/oidcIssuer.ts';
import { uniqueSlug } from '../../support/testService.ts';

let stack: ActorStack;
/** The same registry with AUTH_ENABLED, for scopes and tokens bound to tenants (its sends go through the same actors). */
let authenticated: ActorStack;
let issuer: OidcIssuer;
beforeAll(async () => {
  issuer = await startOidcIssuer();
  stack = await startActorStack({ settings: { PROVISIONING_WAIT_MS: 10_000 } });
  authenticated = await startActorStack({ settings: { PROVISIONING_WAIT_MS: 10_000 }, authConfig: loadAuthConfig({ AUTH_ENABLED: 'true', AUTH_ISSUER: issuer.issuer }) });
});
afterAll(async () => {
  await stack?.close();
  await authenticated?.close();
  await issuer?.close();
});

const request = (method: string, path: string, body?: unknown) => stack.service.request(method, path, body);
const newTenant = async () => (await request('POST', '/v1/tenants', { slug: uniqueSlug('inv'), name: 'Invitations' })).body.tenant as { id: string; slug: string };
const invite = (tenantId: string, body: Record<string, unknown>) => request('POST', `/v1/tenants/${tenantId}/invitations`, body);
const list = (tenantId: string, query = '') => request('GET', `/v1/tenants/${tenantId}/invitations${query}`);
const resend = (id: string) => request('POST', `/v1/invitations/${id}/resend`);
const revoke = (id: string) => request('POST', `/v1/invitations/${id}/revoke`);
const member = async (tenantId: string, userId: string) => request('GET', `/v1/tenants/${tenantId}/members/${userId}`);
const eventsOf = async (tenantId: string, prefix: string) =>
  ((await request('GET', `/v1/audit?tenant_id=${tenantId}&limit=500`)).body.items as { action: string; target_id?: string; metadata: Record<string, unknown> }[])
    .filter((e) => e.action.startsWith(prefix))
    .reverse();
/** The simulated provider's link page (GET) and its form (POST with a password). */
const openLink = (url: string) => request('GET', new URL(url).pathname + new URL(url).search);
const completeLink = (url: string, password = 'correct horse battery') => request('POST', new URL(url).pathname + new URL(url).search, { password });
const userOf = async (tenantId: string, invitationId: string) =>
  eventually(async () => (await eventsOf(tenantId, 'idp.invitation_sent')).find((e) => e.target_id === invitationId)?.metadata.user_id as string | undefined, 10_000, 'the send');

describe('POST /v1/tenants/{id}/invitations', () => {
  it('invites with the link in the answer: pending, one send, the user made, a pending member with the roles, one e-mail, audited', async () => {
    const tenant = await newTenant();
    const email = `Ada@${tenant.slug}.example`;
    const res = await invite(tenant.id, { email, roles: ['IT_ADMIN'] });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      tenant_id: tenant.id,
      email: email.toLowerCase(),
      roles: ['IT_ADMIN'],
      state: 'pending',
      invited_by: 'anonymous',
      send_count: 1,
      accepted_at: null,
      accepted_user_id: null,
      revoked_at: null,
      invite_url: expect.stringMatching(/\/idp-sim\/login-actions\/action-token\?key=/),
    });
    expect(Date.parse(res.body.expires_at) - Date.parse(res.body.created_at)).toBe(7 * 24 * 3600_000);
    const userId = await userOf(tenant.id, res.body.id);
    expect((await member(tenant.id, userId)).body).toMatchObject({ status: 'pending', source: 'invitation', roles: ['IT_ADMIN'], email: email.toLowerCase() });
    const mails = await capturedEmails(stack.service.orm, email);
    expect(mails.map((m) => m.actionUrl)).toEqual([res.body.invite_url]);
    expect((await eventsOf(tenant.id, 'invitation.')).map((e) => [e.action, e.metadata.roles])).toEqual([['invitation.created', ['IT_ADMIN']]]);
    const { invite_url: link, updated_at: changed, ...stored } = res.body;
    expect([link, changed]).toEqual([expect.any(String), expect.any(String)]);
    expect((await request('GET', `/v1/invitations/${res.body.id}`)).body).toMatchObject(stored);
  });

  it('answers a pending invitation of the same address again (200, no link, nothing sent); a member\'s address is 409', async () => {
    const tenant = await newTenant();
    const email = `bo@${tenant.slug}.example`;
    const first = await invite(tenant.id, { email });
    expect(first.body.roles).toEqual(['MEMBER']);
    const again = await invite(tenant.id, { email: email.toUpperCase(), roles: ['IT_ADMIN'] });
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(first.body.id);
    expect(again.body.invite_url).toBeUndefined();
    expect(await capturedEmails(stack.service.orm, email)).toHaveLength(1);
    await insertMember(stack.service.orm, { tenantId: tenant.id, userId: 'active-one', status: 'active', roles: ['MEMBER'] });
    expect(await invite(tenant.id, { email: 'active-one@example.test' })).toMatchObject({ status: 409, body: { error: 'conflict' } });
  });

  it('refuses what it cannot invite: 400 for a bad address, an unknown role, days outside 1–30; 404 for an unknown tenant', async () => {
    const tenant = await newTenant();
    for (const body of [{ email: 'not-an-address' }, { email: 'a@b.example', roles: ['NO_SUCH_ROLE'] }, { email: 'a@b.example', expires_in_days: 0 }, { email: 'a@b.example', expires_in_days: 31 }, { email: 'a@b.example', extra: 1 }, {}]) {
      expect((await invite(tenant.id, body)).status, JSON.stringify(body)).toBe(400);
    }
    expect((await invite('00000000-0000-4000-8000-000000000001', { email: 'a@b.example' })).status).toBe(404);
    expect((await list(tenant.id)).body.items).toEqual([]);
  });

  it("takes the tenant's settings when the request names no roles or days", async () => {
    const tenant = await newTenant();
    expect((await request('POST', '/v1/roles', { slug: 'Helpdesk', name: 'Helpdesk', tenant_id: tenant.id })).status).toBe(201);
    expect((await request('PATCH', `/v1/tenants/${tenant.id}`, { settings: { default_role: 'Helpdesk', invitation_expiry_days: 3 } })).status).toBe(200);
    const res = await invite(tenant.id, { email: `set@${tenant.slug}.example`, send_email: false });
    expect(res.body.roles).toEqual(['Helpdesk']);
    expect(Date.parse(res.body.expires_at) - Date.parse(res.body.created_at)).toBe(3 * 24 * 3600_000);
  });

  it('with send_email false answers the link and mails nothing', async () => {
    const tenant = await newTenant();
    const email = `quiet@${tenant.slug}.example`;
    const res = await invite(tenant.id, { email, send_email: false, expires_in_days: 2 });
    expect(res.status).toBe(201);
    expect(res.body.invite_url).toMatch(/action-token/);
    expect(Date.parse(res.body.expires_at) - Date.parse(res.body.created_at)).toBe(2 * 24 * 3600_000);
    expect((await openLink(res.body.invite_url)).status).toBe(200);
    expect(await capturedEmails(stack.service.orm, email)).toEqual([]);
  });
});

describe('acceptance', () => {
  it('the link completed: accepted with the user id, the member active with the roles, audited; the used link opens nothing', async () => {
    const tenant = await newTenant();
    const res = await invite(tenant.id, { email: `cy@${tenant.slug}.example`, roles: ['IT_ADMIN', 'MEMBER'] });
    const userId = await userOf(tenant.id, res.body.id);
    expect((await openLink(res.body.invite_url)).body).toMatchObject({ email: `cy@${tenant.slug}.example`, required_actions: ['VERIFY_EMAIL', 'UPDATE_PASSWORD'] });
    expect(await completeLink(res.body.invite_url)).toMatchObject({ status: 200, body: { user_id: userId, invitation_id: res.body.id, invitation_state: 'accepted' } });
    const accepted = (await request('GET', `/v1/invitations/${res.body.id}`)).body;
    expect(accepted).toMatchObject({ state: 'accepted', accepted_user_id: userId });
    expect((await member(tenant.id, userId)).body).toMatchObject({ status: 'active', roles: ['IT_ADMIN', 'MEMBER'], source: 'invitation' });
    const claims = await request('POST', '/v1/internal/idp/claims', { tenant_id: tenant.id, user_id: userId });
    expect(claims.body).toMatchObject({ membership_status: 'active', org_roles: ['IT_ADMIN', 'MEMBER'] });
    expect((await eventsOf(tenant.id, 'invitation.accepted'))[0]?.metadata).toMatchObject({ user_id: userId, via: 'link' });
    expect((await openLink(res.body.invite_url)).status).toBe(404);
    expect((await completeLink(res.body.invite_url)).status).toBe(404);
    expect((await completeLink(`${res.body.invite_url}x`)).status).toBe(404);
  });

  it("no read accepts an invitation: a pending member's claims request answers pending and the invitation stays pending, its link still open", async () => {
    const tenant = await newTenant();
    const res = await invite(tenant.id, { email: `di@${tenant.slug}.example`, roles: ['IT_ADMIN'] });
    const userId = await userOf(tenant.id, res.body.id);
    const claims = await request('POST', '/v1/internal/idp/claims', { tenant_slug: tenant.slug, user_id: userId });
    expect(claims.body).toMatchObject({ tenant_id: tenant.id, membership_status: 'pending' });
    expect((await request('GET', `/v1/invitations/${res.body.id}`)).body).toMatchObject({ state: 'pending', accepted_user_id: null });
    expect((await member(tenant.id, userId)).body).toMatchObject({ status: 'pending' });
    expect(await eventsOf(tenant.id, 'invitation.accepted')).toEqual([]);
    expect((await openLink(res.body.invite_url)).status).toBe(200);
  });
});

describe('POST /v1/invitations/{id}/resend', () => {
  it('makes a new link (the one before opens nothing), starts the expiry again, counts the send; a fourth send in 10 minutes is 429', async () => {
    const tenant = await newTenant();
    const email = `ed@${tenant.slug}.example`;
    const first = await invite(tenant.id, { email, expires_in_days: 3 });
    await new Promise((r) => setTimeout(r, 20));
    const second = await resend(first.body.id);
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ state: 'pending', send_count: 2, invite_url: expect.stringMatching(/action-token/) });
    expect(second.body.invite_url).not.toBe(first.body.invite_url);
    expect(Date.parse(second.body.expires_at)).toBeGreaterThan(Date.parse(first.body.expires_at));
    expect(Date.parse(second.body.expires_at) - Date.parse(second.body.last_sent_at)).toBe(3 * 24 * 3600_000);
    expect((await openLink(first.body.invite_url)).status).toBe(404);
    expect((await completeLink(first.body.invite_url)).status).toBe(404);
    expect((await openLink(second.body.invite_url)).status).toBe(200);
    expect((await resend(first.body.id)).status).toBe(200);
    const limited = await resend(first.body.id);
    expect(limited).toMatchObject({ status: 429, body: { error: 'rate_limited' } });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(500);
    expect((await eventsOf(tenant.id, 'invitation.')).map((e) => e.action)).toEqual(['invitation.created', 'invitation.resent', 'invitation.resent']);
    await eventually(async () => (await capturedEmails(stack.service.orm, email)).length === 3, 10_000, 'three e-mails');
  });

  it('is 409 for an accepted or revoked invitation and 404 for an unknown one', async () => {
    const tenant = await newTenant();
    const accepted = await invite(tenant.id, { email: `fa@${tenant.slug}.example` });
    await userOf(tenant.id, accepted.body.id);
    await completeLink(accepted.body.invite_url);
    expect((await resend(accepted.body.id)).status).toBe(409);
    const revoked = await invite(tenant.id, { email: `fb@${tenant.slug}.example` });
    await revoke(revoked.body.id);
    expect((await resend(revoked.body.id)).status).toBe(409);
    expect((await resend('00000000-0000-4000-8000-000000000002')).status).toBe(404);
  });
});

describe('POST /v1/invitations/{id}/revoke', () => {
  it('closes the link and removes the pending member (member.removed); again answers it as it is; an accepted one is 409', async () => {
    const tenant = await newTenant();
    const res = await invite(tenant.id, { email: `gi@${tenant.slug}.example` });
    const userId = await userOf(tenant.id, res.body.id);
    const revoked = await revoke(res.body.id);
    expect(revoked).toMatchObject({ status: 200, body: { state: 'revoked', revoked_at: expect.any(String) } });
    expect((await revoke(res.body.id)).body).toEqual(revoked.body);
    expect((await openLink(res.body.invite_url)).status).toBe(404);
    expect((await member(tenant.id, userId)).status).toBe(404);
    expect((await eventsOf(tenant.id, 'member.')).map((e) => e.action)).toEqual(['member.added', 'member.removed']);
    expect((await eventsOf(tenant.id, 'invitation.')).map((e) => e.action)).toEqual(['invitation.created', 'invitation.revoked']);
    // A new invitation of the same address is a new one; the revoked one is kept.
    expect((await invite(tenant.id, { email: `gi@${tenant.slug}.example` })).status).toBe(201);
    const accepted = await invite(tenant.id, { email: `gj@${tenant.slug}.example` });
    await userOf(tenant.id, accepted.body.id);
    await completeLink(accepted.body.invite_url);
    expect((await revoke(accepted.body.id)).status).toBe(409);
  });
});

describe('GET /v1/tenants/{id}/invitations and /v1/invitations/{id}', () => {
  it('lists newest first, by state and address, in pages; every state is kept', async () => {
    const tenant = await newTenant();
    const ids: string[] = [];
    for (const name of ['ha', 'hb', 'hc']) ids.push((await invite(tenant.id, { email: `${name}@${tenant.slug}.example`, send_email: false })).body.id);
    await revoke(ids[1]!);
    expect((await list(tenant.id)).body.items.map((i: { id: string }) => i.id)).toEqual([...ids].reverse());
    expect((await list(tenant.id, '?state=revoked')).body.items.map((i: { id: string }) => i.id)).toEqual([ids[1]]);
    expect((await list(tenant.id, `?email=HA@${tenant.slug}.example`)).body.items.map((i: { id: string }) => i.id)).toEqual([ids[0]]);
    const page1 = await list(tenant.id, '?limit=2');
    expect(page1.body.items).toHaveLength(2);
    const page2 = await list(tenant.id, `?limit=2&cursor=${page1.body.next_cursor}`);
    expect(page2.body).toEqual({ items: [expect.objectContaining({ id: ids[0] })] });
    expect((await list(tenant.id, '?cursor=bm9wZQ')).status).toBe(400);
    expect((await list(tenant.id, '?state=lost')).status).toBe(400);
    expect((await list('00000000-0000-4000-8000-000000000003')).status).toBe(404);
    expect((await request('GET', '/v1/invitations/00000000-0000-4000-8000-000000000004')).status).toBe(404);
  });
});

describe("provisioning's invite is an invitation", () => {
  it("a tenant created with admin_email has the IT_ADMIN's pending invitation (inviter provisioning); its link accepts it and the member is active", async () => {
    const slug = uniqueSlug('invprov');
    const created = await request('POST', '/v1/tenants', { slug, name: 'Provisioned', admin_email: `root@${slug}.example` });
    expect(created.body.invite_url).toMatch(/action-token/);
    const tenantId = created.body.tenant.id;
    const [invitation] = (await list(tenantId)).body.items;
    expect(invitation).toMatchObject({ email: `root@${slug}.example`, roles: ['IT_ADMIN'], state: 'pending', invited_by: 'provisioning' });
    const done = await completeLink(created.body.invite_url);
    expect(done.body).toMatchObject({ invitation_id: invitation.id, invitation_state: 'accepted' });
    expect((await member(tenantId, done.body.user_id)).body).toMatchObject({ status: 'active', source: 'provisioning', roles: ['IT_ADMIN'] });
  });
});

describe('with AUTH_ENABLED', () => {
  const bearer = async (scope: string, tenantId?: string) => ({
    authorization: `Bearer ${await issuer.sign({ aud: 'tenant-registry', azp: 'support-desk', scope, ...(tenantId ? { tenant_id: tenantId } : {}) })}`,
  });

  it('needs members:write to invite, resend and revoke and members:read to read; a token bound to another tenant finds nothing', async () => {
    const admin = await bearer('registry:admin');
    const tenant = (await authenticated.service.request('POST', '/v1/tenants', { slug: uniqueSlug('invauth'), name: 'Auth' }, admin)).body.tenant;
    const other = (await authenticated.service.request('POST', '/v1/tenants', { slug: uniqueSlug('invauth'), name: 'Other' }, admin)).body.tenant;
    const reader = await bearer('members:read');
    expect((await authenticated.service.request('POST', `/v1/tenants/${tenant.id}/invitations`, { email: 'x@auth.example' }, reader)).status).toBe(403);
    const created = await authenticated.service.request('POST', `/v1/tenants/${tenant.id}/invitations`, { email: 'x@auth.example', send_email: false }, await bearer('members:write'));
    expect(created).toMatchObject({ status: 201, body: { invited_by: 'support-desk' } });
    expect((await authenticated.service.request('GET', `/v1/invitations/${created.body.id}`, undefined, reader)).status).toBe(200);
    const bound = await bearer('members:write members:read', other.id);
    for (const [method, path] of [
      ['GET', `/v1/invitations/${created.body.id}`],
      ['POST', `/v1/invitations/${created.body.id}/resend`],
      ['POST', `/v1/invitations/${created.body.id}/revoke`],
      ['GET', `/v1/tenants/${tenant.id}/invitations`],
      ['POST', `/v1/tenants/${tenant.id}/invitations`],
    ] as const) {
      expect((await authenticated.service.request(method, path, method === 'POST' && path.endsWith('invitations') ? { email: 'y@auth.example' } : undefined, bound)).status, `${method} ${path}`).toBe(404);
    }
    expect((await authenticated.service.request('GET', `/v1/invitations/${created.body.id}`, undefined, await bearer('members:read', tenant.id))).status).toBe(200);
  });
});

describe("the identity provider's link check and acceptance report (POST /v1/internal/idp/invitations/link, /accepted)", () => {
  const nonceOf = async (id: string) =>
    (await stack.service.orm.em.fork().execute<{ link_nonce: string | null }[]>('select link_nonce from invitations where id = ?', [id]))[0]!.link_nonce;

  it('opens only the current link of a pending invitation, for its user; the report accepts it once', async () => {
    const tenant = await newTenant();
    const res = await invite(tenant.id, { email: `kc@${tenant.slug}.example`, roles: ['IT_ADMIN'] });
    const userId = await userOf(tenant.id, res.body.id);
    const first = (await nonceOf(res.body.id))!;
    const check = (nonce: string, user?: string) =>
      request('POST', '/v1/internal/idp/invitations/link', { invitation_id: res.body.id, nonce, ...(user ? { user_id: user } : {}) });
    expect((await check(first)).body).toEqual({ open: true });
    expect((await check(first, userId)).body).toEqual({ open: true });
    expect((await check(first, 'someone-else')).body).toEqual({ open: false });
    expect((await check('forged')).body).toEqual({ open: false });
    await resend(res.body.id);
    const second = (await nonceOf(res.body.id))!;
    expect((await check(first)).body).toEqual({ open: false });
    expect((await check(second)).body).toEqual({ open: true });

    const report = (nonce: string, user: string) => request('POST', '/v1/internal/idp/invitations/accepted', { invitation_id: res.body.id, nonce, user_id: user });
    expect((await report(first, userId)).status).toBe(404);
    expect((await report(second, 'someone-else')).status).toBe(404);
    expect(await report(second, userId)).toMatchObject({ status: 200, body: { state: 'accepted', accepted_user_id: userId } });
    expect((await report(second, userId)).status).toBe(404);
    expect((await check(second)).body).toEqual({ open: false });
    expect((await member(tenant.id, userId)).body).toMatchObject({ status: 'active', roles: ['IT_ADMIN'] });
    expect((await request('POST', '/v1/internal/idp/invitations/link', { invitation_id: 'nope', nonce: 'x' })).status).toBe(400);
  });
});
