import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actionLinks, capturedMail } from '../support/capturedMail.ts';
import { claimsOf, signIn, TEST_PASSWORD } from '../support/demoAppSession.ts';
import { eventually } from '../support/eventually.ts';
import { keycloakAdmin } from '../support/keycloakAdmin.ts';
import { startInvitingThroughKeycloak, type InvitingThroughKeycloak } from '../support/invitingThroughKeycloak.ts';
import { uniqueSlug } from '../support/testService.ts';

/**
 * SPEC-EXTENSIONS §13 against the run's real Keycloak, in a real browser: tenant A's invitation to the address of
 * tenant B's administrator, who already set its password, leads to Keycloak's sign-in, adds no action to the account
 * and changes none of its credentials; B's administrator signing in with its own password accepts it. The invitation's
 * e-mail says so: sign in to accept, nothing about a password or the address.
 */
const screenshots = resolve(import.meta.dirname, '../../.data/test/screenshots');
const WRONG_PASSWORD = 'Not-the-admins-password-1';

let inviting: InvitingThroughKeycloak;

beforeAll(async () => {
  inviting = await startInvitingThroughKeycloak();
  await mkdir(screenshots, { recursive: true });
});
afterAll(() => inviting?.close());

const request = (method: string, path: string, body?: unknown) => inviting.stack.service.request(method, path, body);
const invitationOf = async (id: string) => (await request('GET', `/v1/invitations/${id}`)).body as { state: string; accepted_user_id: string | null };
const keycloakUser = async (email: string) => (await (await keycloakAdmin()).users.find({ email, exact: true }))[0]!;
const acceptedWithin = (id: string, ms: number) =>
  eventually(async () => ((await invitationOf(id)).state === 'accepted' ? invitationOf(id) : undefined), ms, `invitation ${id} accepted`);

/** Keycloak's login form as it shows for this realm (identity-first with organizations): the username, then the password. */
async function typePassword(page: Page, email: string, password: string): Promise<void> {
  await page.locator('#username, #password').first().waitFor();
  if (await page.locator('#username').isVisible()) {
    await page.fill('#username', email);
    await page.click('[type=submit]');
    await page.locator('#password').waitFor();
  }
  await page.fill('#password', password);
  await page.click('[type=submit]');
}

/** Tenant B with its IT_ADMIN, who followed provisioning's invite and set its own password: an account with credentials. */
async function tenantWithActiveAdmin(page: Page): Promise<{ tenantId: string; email: string }> {
  const slug = uniqueSlug('kcvictim');
  const email = `admin@${slug}.example`;
  const created = await request('POST', '/v1/tenants', { slug, name: `Victim ${slug}`, admin_email: email, admin_name: 'Bea Admin' });
  expect(created.status).toBe(201);
  const [invitation] = (await request('GET', `/v1/tenants/${created.body.tenant.id}/invitations`)).body.items as { id: string }[];
  await inviting.browser.context.clearCookies();
  await page.goto(created.body.invite_url);
  await page.click('text=Click here to proceed');
  await page.fill('#password-new', TEST_PASSWORD);
  await page.fill('#password-confirm', TEST_PASSWORD);
  await page.click('[type=submit]');
  await page.locator('#firstName').or(page.getByText('Your account has been updated')).first().waitFor();
  await page.screenshot({ path: resolve(screenshots, 'existing-account-00-admin-set-up.png') });
  if (await page.locator('#firstName').isVisible()) {
    await page.fill('#firstName', 'Bea');
    await page.fill('#lastName', 'Admin');
    await page.click('[type=submit]');
  }
  await expect.poll(() => page.textContent('body'), { timeout: 30_000 }).toContain('Your account has been updated');
  await acceptedWithin(invitation!.id, 5_000);
  return { tenantId: created.body.tenant.id, email };
}

describe("another tenant's invitation to an account that has credentials", () => {
  it("opens Keycloak's sign-in, not a password form; a wrong password accepts nothing; the account's own password accepts it; the password stays the account's", async () => {
    const { page } = inviting.browser;
    const victim = await tenantWithActiveAdmin(page);
    const before = await keycloakUser(victim.email);
    expect(before.requiredActions).toEqual([]);

    const slug = uniqueSlug('kcinviter');
    const inviter = (await request('POST', '/v1/tenants', { slug, name: `Inviter ${slug}` })).body.tenant as { id: string };
    const invited = await request('POST', `/v1/tenants/${inviter.id}/invitations`, { email: victim.email, roles: ['IT_ADMIN'], send_email: false });
    expect(invited.status).toBe(201);
    expect(invited.body.invite_url).toMatch(/\/login-actions\/action-token\?key=/);

    // Opened where B's administrator has no session (the inviter's browser): Keycloak's sign-in page, no new password.
    await inviting.browser.context.clearCookies();
    await page.goto(invited.body.invite_url);
    await page.locator('#kc-form-login').waitFor();
    await page.screenshot({ path: resolve(screenshots, 'existing-account-01-sign-in.png') });
    expect(await page.locator('#password-new').count()).toBe(0);
    expect(await page.textContent('body')).not.toMatch(/Perform the following action|Update Password|Verify Email/);
    // Opening the link added nothing to the account.
    expect((await keycloakUser(victim.email)).requiredActions).toEqual([]);

    await typePassword(page, victim.email, WRONG_PASSWORD);
    await page.waitForLoadState();
    await page.screenshot({ path: resolve(screenshots, 'existing-account-02-wrong-password.png') });
    await expect.poll(() => page.textContent('body'), { timeout: 20_000 }).toContain('Invalid');
    expect(await invitationOf(invited.body.id)).toMatchObject({ state: 'pending', accepted_user_id: null });

    // The account's holder signs in with its own password, in the same flow the link opened.
    await page.fill('#password', TEST_PASSWORD);
    await page.click('[type=submit]');
    const signedInAt = Date.now();
    await page.waitForLoadState();
    await page.screenshot({ path: resolve(screenshots, 'existing-account-02b-signed-in.png') });
    const accepted = await acceptedWithin(invited.body.id, 5_000);
    expect(Date.now() - signedInAt).toBeLessThan(5_000);
    expect(accepted.accepted_user_id).toBe(before.id);
    expect((await request('GET', `/v1/tenants/${inviter.id}/members/${before.id}`)).body).toMatchObject({ status: 'active', roles: ['IT_ADMIN'] });
    const after = await keycloakUser(victim.email);
    expect(after.requiredActions).toEqual([]);
    expect(after.emailVerified).toBe(before.emailVerified);

    // Its password is still its own: it signs in with it, and with no other.
    await inviting.browser.context.clearCookies();
    const tokens = await signIn(page, inviting.demoApp.url, victim.email, slug);
    expect(claimsOf(tokens.access_token)).toMatchObject({ tenant_id: inviter.id, membership_status: 'active', org_roles: ['IT_ADMIN'] });
    await inviting.browser.context.clearCookies();
    await page.goto(inviting.demoApp.url);
    await page.click('#sign-in');
    await typePassword(page, victim.email, WRONG_PASSWORD);
    await expect.poll(() => page.textContent('body')).toContain('Invalid');
    await page.screenshot({ path: resolve(screenshots, 'existing-account-03-other-password-refused.png') });
  }, 240_000);

  it("mails the account a sign-in to accept, naming the inviting organization, never a password to set or an address to verify", async () => {
    const victim = await tenantWithActiveAdmin(inviting.browser.page);
    const slug = uniqueSlug('kcmailer');
    const inviter = (await request('POST', '/v1/tenants', { slug, name: 'Mailing inviter' })).body.tenant as { id: string };
    const invited = await request('POST', `/v1/tenants/${inviter.id}/invitations`, { email: victim.email, roles: ['MEMBER'] });
    expect(invited.status).toBe(201);
    const mail = await eventually(async () => (await capturedMail(victim.email)).find((m) => actionLinks(m).includes(invited.body.invite_url)), 20_000, "the invitation's e-mail");
    for (const part of [mail.subject, mail.text, mail.html]) {
      expect(part).not.toMatch(/update password|verify email|password|verif|update your .* account/i);
    }
    expect(mail.subject).toContain(`Mailing inviter (${slug})`);
    expect(mail.text).toMatch(/sign in/i);
    expect(mail.text).toContain(`Mailing inviter (${slug})`);
    expect(mail.html).toContain(invited.body.invite_url.replaceAll('&', '&amp;'));
    // The link it carries is the same sign-in as the answer's.
    await inviting.browser.context.clearCookies();
    await inviting.browser.page.goto(actionLinks(mail)[0]!);
    await inviting.browser.page.locator('#kc-form-login').waitFor();
    expect(await inviting.browser.page.locator('#password-new').count()).toBe(0);
  }, 180_000);
});
