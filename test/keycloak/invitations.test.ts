import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actionLinks, capturedMail } from '../support/capturedMail.ts';
import { claimsOf, signIn, TEST_PASSWORD } from '../support/demoAppSession.ts';
import { eventually } from '../support/eventually.ts';
import { freePort } from '../../platform/freePort.ts';
import { configureDemoAppMapper } from '../support/demoAppMapper.ts';
import { keycloakAdmin } from '../support/keycloakAdmin.ts';
import { startInvitingThroughKeycloak, type InvitingThroughKeycloak } from '../support/invitingThroughKeycloak.ts';
import { uniqueSlug } from '../support/testService.ts';

/**
 * SPEC-EXTENSIONS §8 against the run's real Keycloak, in a real browser: an invitation with a tenant's own role is
 * sent by Keycloak's mail, followed by the colleague, accepted through the extension's report, and carried into the
 * colleague's token; the links of a resent, a revoked and a tampered invitation show Keycloak's invalid-link page; a link
 * the registry cannot be asked about says to try again later, and opens once the registry is back.
 */
const screenshots = resolve(import.meta.dirname, '../../.data/test/screenshots');

let inviting: InvitingThroughKeycloak;
let tenant: { id: string; slug: string };

beforeAll(async () => {
  inviting = await startInvitingThroughKeycloak();
  await mkdir(screenshots, { recursive: true });
  const slug = uniqueSlug('kcinv');
  tenant = { id: (await inviting.stack.service.request('POST', '/v1/tenants', { slug, name: `Invitations ${slug}` })).body.tenant.id, slug };
  const role = await inviting.stack.service.request('POST', '/v1/roles', { slug: 'billing', name: 'Billing', tenant_id: tenant.id });
  expect(role.status).toBe(201);
});
afterAll(() => inviting?.close());

const invite = async (email: string, roles: string[]) => {
  const res = await inviting.stack.service.request('POST', `/v1/tenants/${tenant.id}/invitations`, { email, roles });
  expect(res.status).toBe(201);
  expect(res.body.invite_url).toMatch(/\/realms\/tenant-registry\/login-actions\/action-token\?key=/);
  return res.body as { id: string; invite_url: string };
};
const invitationOf = async (id: string) => (await inviting.stack.service.request('GET', `/v1/invitations/${id}`)).body;
const acceptedEvents = async () =>
  ((await inviting.stack.service.request('GET', `/v1/audit?tenant_id=${tenant.id}&action=invitation.accepted`)).body.items as { target_id: string; metadata: Record<string, unknown> }[]);
const keycloakUser = async (email: string) => (await (await keycloakAdmin()).users.find({ email, exact: true }))[0];

/** Opens a link as a browser without a Keycloak session would (its cookies cleared) and answers the page's text. */
async function openFresh(link: string, screenshot?: string): Promise<string> {
  await inviting.browser.context.clearCookies();
  const page = await inviting.browser.context.newPage();
  try {
    await page.goto(link);
    await page.locator('body').waitFor();
    if (screenshot) await page.screenshot({ path: resolve(screenshots, screenshot) });
    return (await page.textContent('body')) ?? '';
  } finally {
    await page.close();
  }
}

/** What Keycloak shows for a link it will not follow: "Action expired" (a link it refuses), "An error occurred" (a broken signature). */
const INVALID_LINK = /We are sorry\.\.\.[\s\S]*(Action expired|An error occurred)/;

describe('an invited colleague', () => {
  it('opens the link of the captured e-mail, completes its actions, is accepted within 5 s through the extension, and its token carries the role', async () => {
    const email = `colleague@${tenant.slug}.example`;
    const invitation = await invite(email, ['billing']);
    const [mail] = await eventually(async () => {
      const mails = await capturedMail(email);
      return mails.length > 0 ? mails : undefined;
    }, 10_000, 'the invitation e-mail');
    const [link] = actionLinks(mail!);
    expect(link).toBe(invitation.invite_url);

    const { page } = inviting.browser;
    await page.goto(link!);
    await expect.poll(() => page.textContent('body')).toContain('Perform the following action(s)');
    await page.screenshot({ path: resolve(screenshots, 'invitation-01-link.png') });
    await page.click('text=Click here to proceed');
    await page.fill('#password-new', TEST_PASSWORD);
    await page.fill('#password-confirm', TEST_PASSWORD);
    await page.click('[type=submit]');
    const completedAt = Date.now();
    // The realm's user profile wants a name the invitation did not give: the colleague types it, as a person would.
    await page.locator('#firstName').or(page.getByText('Your account has been updated')).first().waitFor();
    if (await page.locator('#firstName').isVisible()) {
      await page.screenshot({ path: resolve(screenshots, 'invitation-02-profile.png') });
      await page.fill('#firstName', 'Colleen');
      await page.fill('#lastName', 'Billing');
      await page.click('[type=submit]');
    }
    await expect.poll(() => page.textContent('body')).toContain('Your account has been updated');

    const user = await keycloakUser(email);
    const accepted = await eventually(async () => {
      const current = await invitationOf(invitation.id);
      return current.state === 'accepted' ? current : undefined;
    }, 5_000, 'the invitation accepted');
    expect(Date.now() - completedAt).toBeLessThan(5_000);
    expect(accepted.accepted_user_id).toBe(user!.id);
    // Accepted through the extension's report, before any token was asked for.
    expect((await acceptedEvents()).find((e) => e.target_id === invitation.id)?.metadata).toMatchObject({ via: 'link', user_id: user!.id });

    await page.click('text=Back to Application');
    await page.waitForURL((url) => url.href.startsWith(inviting.demoApp.url));
    const tokens = await signIn(page, inviting.demoApp.url, email, tenant.slug);
    await page.screenshot({ path: resolve(screenshots, 'invitation-03-demo-app.png'), fullPage: true });
    expect(claimsOf(tokens.access_token)).toMatchObject({
      tenant_id: tenant.id,
      tenant_slug: tenant.slug,
      org_roles: ['billing'],
      permissions: [],
      membership_status: 'active',
      claims_source: 'registry',
    });
    // The used link opens nothing now.
    expect(await openFresh(link!)).toMatch(INVALID_LINK);
  });
});

describe("a link Keycloak does not follow shows Keycloak's invalid-link page", () => {
  it('the link of a resent invitation (the new one works), of a revoked one, and a tampered one; none joins anything', async () => {
    const resentEmail = `resent@${tenant.slug}.example`;
    const first = await invite(resentEmail, ['MEMBER']);
    expect(await openFresh(first.invite_url)).toContain('Perform the following action(s)');
    const resent = await inviting.stack.service.request('POST', `/v1/invitations/${first.id}/resend`);
    expect(resent.status).toBe(200);
    expect(await openFresh(first.invite_url, 'invitation-04-superseded.png')).toMatch(INVALID_LINK);
    expect(await openFresh(resent.body.invite_url)).toContain('Perform the following action(s)');

    const revoked = await invite(`revoked@${tenant.slug}.example`, ['MEMBER']);
    expect((await inviting.stack.service.request('POST', `/v1/invitations/${revoked.id}/revoke`)).status).toBe(200);
    expect(await openFresh(revoked.invite_url, 'invitation-05-revoked.png')).toMatch(INVALID_LINK);

    // The resent invitation's token rewritten to name the revoked invitation: its signature no longer holds.
    const key = new URL(resent.body.invite_url).searchParams.get('key')!;
    const [header, payload, signature] = key.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString('utf8')) as Record<string, unknown>;
    const forged = { ...claims, tr_invitation: revoked.id, eml: `revoked@${tenant.slug}.example` };
    const tampered = new URL(resent.body.invite_url);
    tampered.searchParams.set('key', [header, Buffer.from(JSON.stringify(forged)).toString('base64url'), signature].join('.'));
    expect(await openFresh(tampered.href, 'invitation-06-tampered.png')).toMatch(INVALID_LINK);

    expect((await invitationOf(first.id)).state).toBe('pending');
    expect((await invitationOf(revoked.id)).state).toBe('revoked');
    const members = (await inviting.stack.service.request('GET', `/v1/tenants/${tenant.id}/members?status=active`)).body.items as { email: string }[];
    expect(members.map((m) => m.email)).not.toContain(`revoked@${tenant.slug}.example`);
    expect(members.map((m) => m.email)).not.toContain(resentEmail);
  });
});

describe('a link opened while the registry cannot be reached', () => {
  it('says the invitation cannot be checked now and to try again, not that the action expired; it opens once the registry answers again', async () => {
    const email = `unreachable@${tenant.slug}.example`;
    const invitation = await invite(email, ['MEMBER']);
    // Nothing listens on a port just found free: the extension's call is refused, as with a registry that is down.
    await configureDemoAppMapper({ 'registry.url': `http://127.0.0.1:${await freePort()}` });
    try {
      const text = await openFresh(invitation.invite_url, 'invitation-07-registry-unreachable.png');
      expect(text).toContain('This invitation cannot be checked right now. Please try again in a few minutes.');
      expect(text).not.toContain('Action expired');
    } finally {
      await configureDemoAppMapper({ 'registry.url': inviting.stack.service.baseUrl });
    }
    expect(await openFresh(invitation.invite_url)).toContain('Perform the following action(s)');
    expect((await invitationOf(invitation.id)).state).toBe('pending');
  });
});
