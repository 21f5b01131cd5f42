import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeycloakIdentityProvider } from '../../identityProvider/keycloakIdentityProvider.ts';
import { startDemoApp, type RunningDemoApp } from '../../platform/keycloakDemoApp.ts';
import { DEMO_APP_CLIENT_ID } from '../../platform/keycloakServer.ts';
import { startActorStack, type ActorStack } from '../support/actorStack.ts';
import { claimsOf, refresh, signIn, TEST_PASSWORD, type Tokens } from '../support/demoAppSession.ts';
import { configureDemoAppMapper } from '../support/demoAppMapper.ts';
import { eventually } from '../support/eventually.ts';
import { keycloakAdmin } from '../support/keycloakAdmin.ts';
import { launchTestBrowser, type TestBrowser } from '../support/keycloakBrowser.ts';
import { keycloakContext, keycloakSettings } from '../support/keycloakContext.ts';
import { uniqueSlug } from '../support/testService.ts';

/**
 * Issue 38 against the run's real Keycloak, in a real browser: a tenant's directory provisions a user by SCIM and maps
 * its group to a role; the user signs in to the demo app with that role in its token. Set `active: false` by SCIM,
 * within 5 s its Keycloak user is disabled, its next token request fails and a new sign-in is refused, and its member
 * is inactive in the registry; deleted by SCIM, its member is gone and its Keycloak user stays disabled.
 */
const screenshots = resolve(import.meta.dirname, '../../.data/test/screenshots');
const GROUP = 'Finance';
const ROLE = 'billing';

let stack: ActorStack;
let demoApp: RunningDemoApp;
let browser: TestBrowser;
let tenant: { id: string; slug: string };
let scim: (method: string, path: string, body?: unknown) => ReturnType<ActorStack['service']['request']>;
/** The SCIM user under test, its Keycloak user (= the member's user_id), and the demo app's latest tokens for it. */
let person: { email: string; scimId: string; userId: string; tokens?: Tokens };

const sql = (text: string, values: unknown[]) => stack.service.orm.em.fork().execute<Record<string, any>[]>(text, values);
const memberRow = async (email = person.email) => (await sql('select user_id, email, status, source from members where tenant_id = ? and email = ?', [tenant.id, email]))[0];
const rolesOf = async (userId: string) =>
  ((await sql(`select r.slug from member_roles mr join roles r on r.id = mr.role_id where mr.tenant_id = ? and mr.user_id = ? order by r.slug collate "C"`, [tenant.id, userId])).map(
    (row) => row.slug as string,
  ));
const organizationsOf = async (userId: string) => (await (await keycloakAdmin()).organizations.memberOrganizations({ userId })).map((o) => o.alias);

/** A refresh_token grant of the demo app's client, answered as is (refresh() of demoAppSession throws away the description). */
async function tokenRequest(refreshToken: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${keycloakContext().realmUrl}/protocol/openid-connect/token`, {
    method: 'POST',
    body: new URLSearchParams({ grant_type: 'refresh_token', client_id: DEMO_APP_CLIENT_ID, refresh_token: refreshToken }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/**
 * Starts the demo app's sign-in for the tenant's organization in the same browser (its earlier Keycloak cookies kept)
 * and types the address and, when asked, the password until Keycloak says the account is disabled: answers the
 * login forms Keycloak showed on the way and the text of the page it stopped at.
 */
async function refusedSignIn(email: string, screenshot: string): Promise<{ forms: string[]; text: string }> {
  const { page } = browser;
  const forms: string[] = [];
  await page.goto(demoApp.url);
  await page.evaluate(() => sessionStorage.removeItem('tokens'));
  await page.reload();
  await page.fill('#organization', tenant.slug);
  await page.click('#sign-in');
  const refused = page.getByText('Account is disabled');
  await page.locator('#username, #password, #access-claims:not(:empty), #status:text-matches("^Error")').or(refused).first().waitFor();
  if (await page.locator('#username').isVisible()) {
    forms.push('username');
    await page.fill('#username', email);
    await page.click('[type=submit]');
    await refused.or(page.locator('#password')).first().waitFor();
  }
  if (await page.locator('#password').isVisible()) {
    forms.push('password');
    await page.fill('#password', TEST_PASSWORD);
    await page.click('[type=submit]');
  }
  await refused.waitFor();
  await page.screenshot({ path: resolve(screenshots, screenshot), fullPage: true });
  return { forms, text: (await page.textContent('body')) ?? '' };
}

beforeAll(async () => {
  demoApp = await startDemoApp({ realmUrl: keycloakContext().realmUrl });
  stack = await startActorStack({ idp: () => new KeycloakIdentityProvider(keycloakSettings()) });
  // The demo app's tokens carry the claims this file's registry answers for the member.
  await configureDemoAppMapper({ 'registry.url': stack.service.baseUrl, 'timeout.ms': '5000' });
  browser = await launchTestBrowser();
  await mkdir(screenshots, { recursive: true });

  const slug = uniqueSlug('kcscim');
  const created = await stack.service.request('POST', '/v1/tenants', { slug, name: `Directory ${slug}` });
  expect(created.status).toBe(201);
  tenant = { id: created.body.tenant.id as string, slug };
  expect((await stack.service.request('POST', '/v1/roles', { slug: ROLE, name: 'Billing', tenant_id: tenant.id })).status).toBe(201);
  const directory = await stack.service.request('POST', `/v1/tenants/${tenant.id}/directories`, { group_roles: { [GROUP]: [ROLE] } });
  expect(directory.status).toBe(201);
  const { id, token } = directory.body as { id: string; token: string };
  scim = (method, path, body) =>
    stack.service.request(method, `/scim/v2/directories/${id}${path}`, body, {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/scim+json' }),
    });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await stack?.close();
  await demoApp?.close();
});

describe('a SCIM user of a tenant\'s directory in the real Keycloak', () => {
  it('becomes an enabled Keycloak user without required actions and an active member with the role its group maps to, which its token carries', async () => {
    const email = `ada@${tenant.slug}.example`;
    const user = await scim('POST', '/Users', {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
      userName: email,
      // A name, as directories send: the realm's user profile asks for one at sign-in otherwise.
      name: { givenName: 'Ada', familyName: 'Lovelace' },
      emails: [{ value: email, type: 'work', primary: true }],
      active: true,
    });
    expect(user.status).toBe(201);
    const scimId = user.body.id as string;
    const group = await scim('POST', '/Groups', { schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'], displayName: GROUP, members: [{ value: scimId }] });
    expect(group.status).toBe(201);

    const member = await eventually(() => memberRow(email), 20_000, 'the member');
    expect(member).toMatchObject({ status: 'active', source: 'directory' });
    person = { email, scimId, userId: member!.user_id as string };
    await eventually(async () => JSON.stringify(await rolesOf(person.userId)) === JSON.stringify(['MEMBER', ROLE]), 20_000, 'the mapped role');

    const admin = await keycloakAdmin();
    expect(await admin.users.findOne({ id: person.userId })).toMatchObject({
      username: email,
      email,
      emailVerified: true,
      enabled: true,
      requiredActions: [],
      firstName: 'Ada',
      lastName: 'Lovelace',
    });
    await eventually(async () => (await organizationsOf(person.userId)).includes(tenant.slug), 20_000, 'the organization membership');

    // The directory gives it no password (it signs in at the customer's provider); the test gives it one to sign in here.
    await admin.users.resetPassword({ id: person.userId, credential: { type: 'password', value: TEST_PASSWORD, temporary: false } });
    const tokens = await signIn(browser.page, demoApp.url, email, tenant.slug);
    await browser.page.screenshot({ path: resolve(screenshots, 'directory-01-signed-in.png'), fullPage: true });
    for (const jwt of [tokens.access_token, tokens.id_token]) {
      expect(claimsOf(jwt)).toMatchObject({
        sub: person.userId,
        tenant_id: tenant.id,
        tenant_slug: tenant.slug,
        org_roles: ['MEMBER', ROLE],
        membership_status: 'active',
        claims_source: 'registry',
      });
    }
    // A token request of the active user succeeds: the refresh token kept for the next test is a live one.
    person.tokens = await refresh(tokens);
    expect(claimsOf(person.tokens.access_token)).toMatchObject({ tenant_id: tenant.id, org_roles: ['MEMBER', ROLE] });
  });

  it('set active: false, within 5 s its Keycloak user is disabled, its next token request fails with invalid_grant, and its member is inactive', async ({ annotate }) => {
    expect(person?.tokens).toBeDefined();
    // One admin login before the clock starts, so the polling measures the actor and not the test's own logins.
    const admin = await keycloakAdmin();
    const patched = await scim('PATCH', `/Users/${person.scimId}`, {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: [{ op: 'replace', path: 'active', value: false }],
    });
    const answeredAt = Date.now();
    expect(patched).toMatchObject({ status: 200, body: { active: false } });
    // Every check shares one deadline, 5 s after the PATCH's answer.
    const within = <T>(check: () => Promise<T | undefined | false>, what: string) => eventually(check, answeredAt + 5_000 - Date.now(), what);

    await within(async () => (await admin.users.findOne({ id: person.userId }))?.enabled === false, 'the Keycloak user disabled');
    const disabledAfterMs = Date.now() - answeredAt;
    await annotate(`Keycloak user disabled ${disabledAfterMs} ms after the PATCH's answer`);

    // The very next token request with the refresh token the user held: refused, no retry.
    const next = await tokenRequest(person.tokens!.refresh_token);
    expect(next).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    await annotate(`refresh refused: ${next.status} ${String(next.body.error)} (${String(next.body.error_description)})`);
    await within(async () => (await memberRow())?.status === 'inactive', 'the member inactive');
    // The actor signs the user out right after disabling it: its sessions end too (until then the refresh says "User disabled").
    await within(async () => (await admin.users.listSessions({ id: person.userId })).length === 0, 'the user\'s sessions ended');
    const allDoneAfterMs = Date.now() - answeredAt;
    await annotate(`member inactive and sessions ended ${allDoneAfterMs} ms after the PATCH's answer`);
    expect(allDoneAfterMs).toBeLessThan(5_000);

    // A new sign-in is refused with Keycloak's disabled-account message.
    const attempt = await refusedSignIn(person.email, 'directory-02-disabled.png');
    await annotate(`sign-in forms shown: ${attempt.forms.join(', ')}`);
    // Keycloak asked who signs in: the browser's old session signed nobody in silently.
    expect(attempt.forms).toContain('username');
    expect(attempt.text).toContain('Account is disabled, contact your administrator.');
    expect(await memberRow()).toMatchObject({ user_id: person.userId, status: 'inactive', source: 'directory' });
  });

  it('deleted, its member row is gone and its Keycloak user stays disabled', async () => {
    expect(person?.tokens).toBeDefined();
    expect((await scim('DELETE', `/Users/${person.scimId}`)).status).toBe(204);
    await eventually(async () => (await memberRow()) === undefined, 20_000, 'the member removed');
    expect((await scim('GET', `/Users/${person.scimId}`)).status).toBe(404);
    // The actor purges the deleted SCIM user's row last, after its provider step: from then on nothing changes the Keycloak user.
    await eventually(async () => (await sql('select 1 from directory_users where id = ?', [person.scimId])).length === 0, 20_000, 'the SCIM user purged');
    const admin = await keycloakAdmin();
    expect(await admin.users.findOne({ id: person.userId })).toMatchObject({ id: person.userId, enabled: false });
    expect(await organizationsOf(person.userId)).not.toContain(tenant.slug);
    expect(await tokenRequest(person.tokens!.refresh_token)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });
});
