import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capturedEmails } from '../../../store/simulatorControl.ts';
import { TENANT_MEMBERSHIPS_ATTRIBUTE, type PushedMembership } from '../../../identityProvider/identityProvider.ts';
import { SimulatedIdentityProvider } from '../../../identityProvider/simulatedIdentityProvider.ts';
import { startActorStack, type ActorStack } from '../../support/actorStack.ts';
import { eventually } from '../../support/eventually.ts';
import { uniqueSlug } from '../../support/testService.ts';

/**
 * SPEC-EXTENSIONS §13 with the simulated provider: an invitation to an account that has credentials is accepted by
 * signing in with them, never by setting them; only an account made for an invitation sets its first password.
 */
let stack: ActorStack;
beforeAll(async () => {
  stack = await startActorStack({ settings: { PROVISIONING_WAIT_MS: 10_000 } });
});
afterAll(async () => {
  await stack?.close();
});

const B_PASSWORD = 'b-admin-own-secret';
const ATTACKER_PASSWORD = 'attacker-chosen-pw';

const request = (method: string, path: string, body?: unknown) => stack.service.request(method, path, body);
const pathOf = (url: string) => new URL(url).pathname + new URL(url).search;
const openLink = (url: string) => request('GET', pathOf(url));
const completeLink = (url: string, password: string) => request('POST', pathOf(url), { password });
const invitationOf = async (id: string) => (await request('GET', `/v1/invitations/${id}`)).body as { state: string; accepted_user_id: string | null };
const memberOf = async (tenantId: string, userId: string) => (await request('GET', `/v1/tenants/${tenantId}/members/${userId}`)).body as { status: string };
const simulator = () => stack.service.deps.identityProvider as SimulatedIdentityProvider;
const userOf = async (tenantId: string, invitationId: string) =>
  eventually(
    async () =>
      (((await request('GET', `/v1/audit?tenant_id=${tenantId}&limit=500`)).body.items as { action: string; target_id?: string; metadata: Record<string, unknown> }[]).find(
        (e) => e.action === 'idp.invitation_sent' && e.target_id === invitationId,
      )?.metadata.user_id as string | undefined),
    10_000,
    'the send',
  );

/** Tenant B, provisioned with its IT_ADMIN, who completed its own invite with its own password: an active account. */
async function tenantWithActiveAdmin(): Promise<{ tenantId: string; email: string; userId: string }> {
  const slug = uniqueSlug('victim');
  const email = `admin@${slug}.example`;
  const created = await request('POST', '/v1/tenants', { slug, name: 'Victim', admin_email: email });
  expect(created.body.invite_url).toMatch(/action-token/);
  const done = await completeLink(created.body.invite_url, B_PASSWORD);
  expect(done.body).toMatchObject({ invitation_state: 'accepted' });
  expect(await memberOf(created.body.tenant.id, done.body.user_id)).toMatchObject({ status: 'active' });
  return { tenantId: created.body.tenant.id, email, userId: done.body.user_id };
}
/** The user's pushed value of tenant_memberships for one tenant (what the claims mapper falls back to). */
async function pushedFor(userId: string, tenantId: string): Promise<PushedMembership | undefined> {
  const [row] = await stack.service.orm.em.fork().execute<{ attributes: Record<string, string[]> }[]>('select attributes from idp_sim_users where id = ?', [userId]);
  return (row?.attributes[TENANT_MEMBERSHIPS_ATTRIBUTE] ?? []).map((value) => JSON.parse(value) as PushedMembership).find((value) => value.tenant_id === tenantId);
}
const newTenant = async () => (await request('POST', '/v1/tenants', { slug: uniqueSlug('inviter'), name: 'Inviter' })).body.tenant as { id: string };

/** B's active administrator invited with IT_ADMIN (send_email false) by another tenant, the invitation's steps done. */
async function adminInvitedByAnotherTenant() {
  const victim = await tenantWithActiveAdmin();
  const inviter = await newTenant();
  const invited = await request('POST', `/v1/tenants/${inviter.id}/invitations`, { email: victim.email, roles: ['IT_ADMIN'], send_email: false });
  expect(invited.status).toBe(201);
  expect(await userOf(inviter.id, invited.body.id)).toBe(victim.userId);
  return { victim, inviter, invited };
}

describe("an invitation to an account that has credentials is accepted by signing in, never by setting the account's password", () => {
  it("another tenant's link (send_email false) asks for a sign-in; a wrong password is 401 and changes nothing; the account's own password accepts it and stays", async () => {
    const { victim, inviter: attacker, invited } = await adminInvitedByAnotherTenant();

    expect((await openLink(invited.body.invite_url)).body).toMatchObject({ email: victim.email, asks: 'sign_in', actions: [] });
    const refused = await completeLink(invited.body.invite_url, ATTACKER_PASSWORD);
    expect(refused).toMatchObject({ status: 401, body: { error: 'unauthorized' } });
    expect(await invitationOf(invited.body.id)).toMatchObject({ state: 'pending', accepted_user_id: null });
    expect(await memberOf(attacker.id, victim.userId)).toMatchObject({ status: 'pending' });
    expect(await simulator().signIn(victim.email, ATTACKER_PASSWORD)).toBeUndefined();
    expect(await simulator().signIn(victim.email, B_PASSWORD)).toBe(victim.userId);

    // The link is still usable: the account's holder signs in with its own password.
    const accepted = await completeLink(invited.body.invite_url, B_PASSWORD);
    expect(accepted).toMatchObject({ status: 200, body: { user_id: victim.userId, invitation_id: invited.body.id, invitation_state: 'accepted' } });
    expect(await memberOf(attacker.id, victim.userId)).toMatchObject({ status: 'active' });
    expect(await memberOf(victim.tenantId, victim.userId)).toMatchObject({ status: 'active' });
    expect(await simulator().signIn(victim.email, B_PASSWORD)).toBe(victim.userId);
    expect(await simulator().signIn(victim.email, ATTACKER_PASSWORD)).toBeUndefined();
  });

  it("a resend's fresh link is a sign-in too: a wrong password is 401, the account's own accepts", async () => {
    const victim = await tenantWithActiveAdmin();
    const attacker = await newTenant();
    const invited = await request('POST', `/v1/tenants/${attacker.id}/invitations`, { email: victim.email, send_email: false });
    await userOf(attacker.id, invited.body.id);
    const resent = await request('POST', `/v1/invitations/${invited.body.id}/resend`);
    expect(resent.status).toBe(200);
    expect((await completeLink(resent.body.invite_url, ATTACKER_PASSWORD)).status).toBe(401);
    expect(await invitationOf(invited.body.id)).toMatchObject({ state: 'pending' });
    expect(await simulator().signIn(victim.email, B_PASSWORD)).toBe(victim.userId);
    expect(await completeLink(resent.body.invite_url, B_PASSWORD)).toMatchObject({ status: 200, body: { user_id: victim.userId, invitation_state: 'accepted' } });
    expect(await memberOf(attacker.id, victim.userId)).toMatchObject({ status: 'active' });
    expect(await simulator().signIn(victim.email, B_PASSWORD)).toBe(victim.userId);
  });

  it("a tenant's own IT_ADMIN invite resent by an operator after the admin set its password is a sign-in as well", async () => {
    const slug = uniqueSlug('resentadm');
    const email = `root@${slug}.example`;
    const created = await request('POST', '/v1/tenants', { slug, name: 'Resent admin', admin_email: email });
    const done = await completeLink(created.body.invite_url, B_PASSWORD);
    expect(done.status).toBe(200);
    // The first link is used; an operator's resend of the administrator's invite mails a new one.
    expect((await request('POST', `/v1/tenants/${created.body.tenant.id}/idp/resend-invite`)).status).toBeLessThan(300);
    const link = await eventually(async () => (await capturedEmails(stack.service.orm, email)).map((m) => m.actionUrl).find((url) => url !== created.body.invite_url), 10_000, 'the resent invite');
    const attempt = await completeLink(link!, ATTACKER_PASSWORD);
    expect(attempt.status).toBe(401);
    expect(await simulator().signIn(email, B_PASSWORD)).toBe(done.body.user_id);
    expect((await completeLink(link!, B_PASSWORD)).body).toMatchObject({ user_id: done.body.user_id });
    expect(await simulator().signIn(email, ATTACKER_PASSWORD)).toBeUndefined();
  });
});

describe("a pending invitation grants nothing until its invitee accepts it", () => {
  it("the invited account's claims for the inviting tenant, asked and pushed, are pending with no roles or permissions; accepted, they carry the invitation's roles", async () => {
    const { victim, inviter, invited } = await adminInvitedByAnotherTenant();
    const claimsFor = async () => (await request('POST', '/v1/internal/idp/claims', { tenant_id: inviter.id, user_id: victim.userId })).body;

    expect(await claimsFor()).toMatchObject({ tenant_id: inviter.id, org_roles: [], permissions: [], membership_status: 'pending' });
    // What the mapper falls back to with the registry down says the same.
    expect(await pushedFor(victim.userId, inviter.id)).toMatchObject({ org_roles: [], permissions: [], membership_status: 'pending' });

    expect((await completeLink(invited.body.invite_url, B_PASSWORD)).body).toMatchObject({ invitation_state: 'accepted' });
    expect(await claimsFor()).toMatchObject({ org_roles: ['IT_ADMIN'], permissions: expect.arrayContaining(['members:manage']), membership_status: 'active' });
    await eventually(async () => ((await pushedFor(victim.userId, inviter.id))?.membership_status === 'active' ? true : undefined), 10_000, 'the accepted push');
    expect(await pushedFor(victim.userId, inviter.id)).toMatchObject({ org_roles: ['IT_ADMIN'], membership_status: 'active' });
  });
});

describe('an account made for the invitation sets its password', () => {
  it('the new account sets its first password through its link; a second tenant\'s link to it is then a sign-in', async () => {
    const first = await newTenant();
    const email = `fresh-${uniqueSlug('new')}@example.test`;
    const invited = await request('POST', `/v1/tenants/${first.id}/invitations`, { email, send_email: false });
    const userId = await userOf(first.id, invited.body.id);
    expect((await openLink(invited.body.invite_url)).body).toMatchObject({ asks: 'set_password', actions: ['VERIFY_EMAIL', 'UPDATE_PASSWORD'] });
    expect(await simulator().signIn(email, B_PASSWORD)).toBeUndefined();
    expect(await completeLink(invited.body.invite_url, B_PASSWORD)).toMatchObject({ status: 200, body: { user_id: userId, invitation_state: 'accepted' } });
    expect(await simulator().signIn(email, B_PASSWORD)).toBe(userId);

    const second = await newTenant();
    const again = await request('POST', `/v1/tenants/${second.id}/invitations`, { email, send_email: false });
    expect((await openLink(again.body.invite_url)).body).toMatchObject({ asks: 'sign_in' });
    expect((await completeLink(again.body.invite_url, ATTACKER_PASSWORD)).status).toBe(401);
    expect(await completeLink(again.body.invite_url, B_PASSWORD)).toMatchObject({ status: 200, body: { user_id: userId, invitation_state: 'accepted' } });
    expect(await simulator().signIn(email, B_PASSWORD)).toBe(userId);
  });
});
