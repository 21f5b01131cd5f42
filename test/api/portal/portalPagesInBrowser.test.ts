import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startActorStack, type ActorStack } from '../../support/actorStack.ts';
import { startDnsServer, type DnsServer } from '../../support/dnsServer.ts';
import { eventually } from '../../support/eventually.ts';
import { launchTestBrowser, type TestBrowser } from '../../support/keycloakBrowser.ts';
import { startOidcIssuer, type OidcIssuer } from '../../support/oidcIssuer.ts';
import { uniqueSlug } from '../../support/testService.ts';
import { idpMetadataXml, selfSignedCertificate, startMetadataServer, type MetadataServer } from '../../support/samlIdentityProviderMetadata.ts';

/**
 * The admin portal as the customer's IT admin uses it (SPEC-EXTENSIONS §11, issue 39): Chromium opens each intent's
 * link and does its main task end to end, against the actors, the simulated provider, a DNS server on loopback and a
 * loopback OIDC issuer. Every page is checked by axe-core in the page (0 serious or critical violations) and
 * photographed (.data/test/screenshots/portal-*.png); no request leaves the service's origin.
 */
const screenshots = resolve(import.meta.dirname, '../../../.data/test/screenshots');
const axeSource = readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

let dns: DnsServer;
let issuer: OidcIssuer;
let metadataServer: MetadataServer;
let stack: ActorStack;
let browser: TestBrowser;
let page: Page;
let tenant: { id: string; slug: string };
/** Every URL the browser asked for, across the file. */
const requested: string[] = [];

beforeAll(async () => {
  dns = await startDnsServer();
  issuer = await startOidcIssuer();
  metadataServer = await startMetadataServer({ status: 404 });
  stack = await startActorStack({ settings: { DNS_SERVERS: [dns.address], DNS_TIMEOUT_MS: 500, SSO_DISCOVERY_TIMEOUT_MS: 2_000, SSO_ISSUER_ALLOWED_HOSTS: ['127.0.0.1'] } });
  await mkdir(screenshots, { recursive: true });
  browser = await launchTestBrowser();
  page = browser.page;
  page.on('request', (request) => requested.push(request.url()));
  tenant = (await stack.service.request('POST', '/v1/tenants', { slug: uniqueSlug('portal'), name: 'Acme Corporation' })).body.tenant;
});
afterAll(async () => {
  await browser?.close();
  await stack?.close();
  await issuer?.close();
  await metadataServer?.close();
  await dns?.close();
});

const sql = (text: string, values: unknown[]) => stack.service.orm.em.fork().execute<Record<string, any>[]>(text, values);
/** The tenant's latest event of `action`, once it is there. */
const eventOf = (action: string) =>
  eventually(async () => (await stack.service.request('GET', `/v1/audit?tenant_id=${tenant.id}&action=${action}`)).body.items[0] as Record<string, any> | undefined, 10_000, action);

/** axe-core run in the page (evaluated by the driver: the portal's CSP allows no script of its own): serious and critical only. */
async function accessibilityViolations(): Promise<{ id: string; impact: string; nodes: number }[]> {
  await page.evaluate(await axeSource);
  const results = (await page.evaluate('axe.run(document)')) as { violations: { id: string; impact: string; nodes: unknown[] }[] };
  return results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length }));
}

/** The page is photographed and passes the accessibility check. */
async function checked(name: string): Promise<void> {
  await page.screenshot({ path: resolve(screenshots, `portal-${name}.png`), fullPage: true });
  expect(await accessibilityViolations(), `axe on ${name}`).toEqual([]);
}

/** A link as the browser opens it: the test service listens on a port of its own, which PUBLIC_BASE_URL does not know. */
const local = (url: string) => `${stack.service.baseUrl}${new URL(url).pathname}${new URL(url).search}`;

/** A link for the intent, opened as a person does: the link, then the button. */
async function openPortal(intent: string, photo?: string): Promise<void> {
  const link = (await stack.service.request('POST', `/v1/tenants/${tenant.id}/portal-links`, { intent, return_url: 'https://app.example.com/settings' })).body;
  await page.goto(local(link.url));
  if (photo) await checked(photo);
  await page.getByRole('button', { name: 'Open the admin portal' }).click();
  await page.waitForURL(`**/portal/${intent}`);
}

describe('the admin portal in a browser', () => {
  it('invitations: a colleague invited with the keyboard alone is listed, audited with the portal session as actor', async () => {
    await openPortal('invitations', '01-open-link');
    await checked('02-invitations');
    const email = `colleague@${tenant.slug}.example`;
    for (let i = 0; i < 10 && (await page.evaluate('document.activeElement?.id')) !== 'email'; i += 1) await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement?.id')).toBe('email');
    await page.keyboard.type(email);
    // On to the roles (shared roles other test files made may come first): IT_ADMIN's box checked with the space bar,
    // then Enter on the button.
    for (let i = 0; i < 30 && (await page.evaluate('document.activeElement?.value')) !== 'IT_ADMIN'; i += 1) await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement?.value')).toBe('IT_ADMIN');
    await page.keyboard.press('Space');
    for (let i = 0; i < 20 && (await page.evaluate('document.activeElement?.textContent')) !== 'Send the invitation'; i += 1) await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.waitForURL('**/portal/invitations?done=invited');
    await expect.poll(() => page.getByRole('status').textContent()).toContain('The invitation was sent.');
    await expect.poll(() => page.getByRole('cell', { name: email }).count()).toBe(1);
    await checked('03-invitation-sent');
    const event = await eventOf('invitation.created');
    expect(event).toMatchObject({ actor_type: 'portal', actor_id: expect.stringMatching(/^portal:/), metadata: { roles: ['IT_ADMIN'], portal: { intent: 'invitations', link_created_by: expect.any(String) } } });
  });

  it('invitations: a field refused shows its error beside it', async () => {
    await page.getByLabel('E-mail address').fill('not-an-address');
    await page.getByRole('button', { name: 'Send the invitation' }).click();
    await expect.poll(() => page.locator('#email-error').textContent()).toBeTruthy();
    expect(await page.getByLabel('E-mail address').getAttribute('aria-invalid')).toBe('true');
    await checked('04-invitation-error');
  });

  it("members: a member's roles changed, audited as member.roles_changed by the portal", async () => {
    await openPortal('members');
    await checked('05-members');
    const row = page.getByRole('row').filter({ hasText: `colleague@${tenant.slug}.example` });
    // Invited with IT_ADMIN (the first role): MEMBER added beside it.
    await row.getByLabel('Member (MEMBER)').check();
    await row.getByRole('button', { name: 'Save roles' }).click();
    await page.waitForURL('**/portal/members?done=roles');
    await checked('06-member-roles-changed');
    expect(await eventOf('member.roles_changed')).toMatchObject({ actor_type: 'portal', metadata: { old: ['IT_ADMIN'], new: ['IT_ADMIN', 'MEMBER'] } });
  });

  let domain = '';
  it('domains: a domain added shows the TXT record to publish; published, "Check now" verifies it', async () => {
    await openPortal('domains');
    domain = `${tenant.slug}.test`;
    await page.getByLabel('Domain name').fill(domain);
    await page.getByRole('button', { name: 'Add the domain' }).click();
    await page.waitForURL('**/portal/domains?done=added');
    const row = page.getByRole('row').filter({ hasText: domain });
    const [name, value] = await row.locator('code').allTextContents();
    expect(name).toBe(`_tenant-registry.${domain}`);
    expect(value).toMatch(/^tenant-registry-verification=/);
    await checked('07-domain-added');
    await dns.setTxt(name!, [value!]);
    await row.getByRole('button', { name: 'Check now' }).click();
    await page.waitForURL('**/portal/domains?done=checked');
    await expect.poll(() => page.getByRole('row').filter({ hasText: domain }).getByRole('cell', { name: 'verified' }).count()).toBe(1);
    await checked('08-domain-verified');
    expect(await eventOf('domain.added')).toMatchObject({ actor_type: 'portal' });
    expect(await eventOf('domain.verified')).toMatchObject({ actor_type: 'portal' });
  });

  it('sso: an OIDC connection set up for the verified domain is listed, its secret never shown', async () => {
    await openPortal('sso');
    await checked('09-sso');
    await page.getByLabel('Issuer URL').fill(issuer.issuer);
    await page.getByLabel('Client ID').fill('acme-registry');
    await page.getByLabel('Client secret').fill('s3cret-of-acme');
    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    await page.waitForURL('**/portal/sso?done=connected');
    await expect.poll(() => page.getByRole('cell', { name: 'acme-registry' }).count()).toBe(1);
    expect(await page.content()).not.toContain('s3cret-of-acme');
    await checked('10-sso-connected');
    expect(await eventOf('sso.connection_created')).toMatchObject({ actor_type: 'portal', metadata: expect.objectContaining({ domains: [domain] }) });
  });

  /** Moves the focus with Tab until `isThere` holds of the focused element (read in the page), at most `limit` presses. */
  async function tabTo(isThere: string, limit = 40): Promise<void> {
    for (let i = 0; i < limit && !(await page.evaluate(`(() => { const e = document.activeElement; return Boolean(e && (${isThere})); })()`)); i += 1) await page.keyboard.press('Tab');
    expect(await page.evaluate(`(() => { const e = document.activeElement; return Boolean(e && (${isThere})); })()`), isThere).toBe(true);
  }

  /** A SAML connection made on the page with the keyboard alone: `fill` puts its metadata in, then Tab to the button and Enter. */
  async function connectSamlByKeyboard(fill: () => Promise<void>, entityId: string): Promise<Record<string, any>> {
    await fill();
    await tabTo(`e.textContent === 'Connect SAML'`);
    await page.keyboard.press('Enter');
    // The page is at ?done=connected already after the first: the connection itself says this one was made.
    const made = await eventually(async () => {
      const connections = (await stack.service.request('GET', `/v1/tenants/${tenant.id}/sso-connections`)).body.items as Record<string, any>[];
      return connections.find((c) => c.protocol === 'saml' && c.saml.idp_entity_id === entityId);
    }, 10_000, `the connection of ${entityId}`);
    await page.waitForURL('**/portal/sso?done=connected');
    // The values to enter at the identity provider are on the page.
    for (const value of [made.sp.entity_id, made.sp.acs_url, made.sp.metadata_url]) await expect.poll(() => page.getByText(value, { exact: true }).count()).toBeGreaterThan(0);
    return made;
  }

  it('sso: a SAML connection set up by pasting, by uploading and by its URL, each with the keyboard alone, shows the values to enter at the identity provider', async () => {
    const certificate = selfSignedCertificate(365, 'portal-idp');
    await openPortal('sso');
    // The OIDC connection's redirect URI is shown too.
    const oidc = ((await stack.service.request('GET', `/v1/tenants/${tenant.id}/sso-connections`)).body.items as Record<string, any>[]).find((c) => c.protocol === 'oidc')!;
    await expect.poll(() => page.getByText(oidc.sp.redirect_uri, { exact: true }).count()).toBe(1);

    await connectSamlByKeyboard(async () => {
      await tabTo(`e.id === 'metadata_xml'`);
      // A paste, as the keyboard makes one (text inserted at the caret).
      await page.keyboard.insertText(idpMetadataXml({ entityId: 'https://paste.idp.test/saml', signing: [certificate] }));
    }, 'https://paste.idp.test/saml');
    await checked('19-sso-saml-pasted');

    const file = join(await mkdtemp(join(tmpdir(), 'portal-saml-')), 'idp-metadata.xml');
    await writeFile(file, idpMetadataXml({ entityId: 'https://file.idp.test/saml', signing: [certificate] }));
    await connectSamlByKeyboard(async () => {
      await tabTo(`e.id === 'metadata_file'`);
      const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.keyboard.press('Space')]);
      await chooser.setFiles(file);
    }, 'https://file.idp.test/saml');
    await checked('20-sso-saml-uploaded');

    metadataServer.serve({ xml: idpMetadataXml({ entityId: 'https://url.idp.test/saml', signing: [certificate] }) });
    const byUrl = await connectSamlByKeyboard(async () => {
      await tabTo(`e.id === 'metadata_url'`);
      await page.keyboard.type(metadataServer.url);
    }, 'https://url.idp.test/saml');
    expect(byUrl.saml.metadata_url).toBe(metadataServer.url);
    await checked('21-sso-saml-by-url');
    expect(await eventOf('sso.connection_created')).toMatchObject({ actor_type: 'portal' });
  }, 120_000);

  it('sso: metadata refused shows its error beside the field; a connection is given new metadata, turned off and deleted there', async () => {
    await page.getByLabel('Metadata XML', { exact: true }).fill('<md:EntityDescriptor');
    await page.getByRole('button', { name: 'Connect SAML' }).click();
    await expect.poll(() => page.locator('#metadata_xml-error').textContent()).toContain('does not parse');
    expect(await page.getByLabel('Metadata XML', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    await checked('22-sso-saml-refused');
    await page.goto(`${stack.service.baseUrl}/portal/sso`);
    const section = page.getByRole('region', { name: 'SAML: https://paste.idp.test/saml' });
    const rollover = selfSignedCertificate(700, 'portal-idp-next');
    await section.getByLabel('New metadata XML').fill(idpMetadataXml({ entityId: 'https://paste.idp.test/saml', signing: [rollover] }));
    await section.getByRole('button', { name: 'Replace the metadata' }).click();
    await page.waitForURL('**/portal/sso?done=changed');
    await expect.poll(() => page.getByText(rollover.fingerprintSha256).count()).toBe(1);
    expect(await eventOf('sso.connection_changed')).toMatchObject({ actor_type: 'portal', metadata: { changes: { certificates: { added: [rollover.fingerprintSha256] } } } });
    await page.goto(`${stack.service.baseUrl}/portal/sso`);
    await section.getByRole('button', { name: 'Turn off' }).click();
    await page.waitForURL('**/portal/sso?done=changed');
    await expect.poll(() => page.getByRole('region', { name: 'SAML: https://paste.idp.test/saml' }).getByRole('button', { name: 'Turn on' }).count()).toBe(1);
    await eventually(async () => (await stack.service.request('GET', `/v1/audit?tenant_id=${tenant.id}&action=sso.connection_changed`)).body.items[0]?.metadata.changes.state, 10_000, 'the state change');
    await page.getByRole('region', { name: 'SAML: https://file.idp.test/saml' }).getByRole('button', { name: 'Delete the connection' }).click();
    await page.waitForURL('**/portal/sso?done=deleted');
    await expect.poll(() => page.getByRole('region', { name: 'SAML: https://file.idp.test/saml' }).count()).toBe(0);
    await checked('23-sso-saml-deleted');
    expect(await eventOf('sso.connection_deleted')).toMatchObject({ actor_type: 'portal', metadata: { protocol: 'saml' } });
  }, 120_000);

  it('directory: a directory created shows its token once; the page shown again has it no more', async () => {
    await openPortal('directory');
    await checked('11-directory');
    await page.getByRole('button', { name: 'Create a directory' }).click();
    const token = await page.locator('#directory-token').textContent();
    expect(token).toMatch(/^scim_/);
    await checked('12-directory-token');
    await page.getByRole('link', { name: 'I have copied the token' }).click();
    await page.waitForURL('**/portal/directory');
    expect(await page.content()).not.toContain(token!);
    const [directory] = await sql('select id from directories where tenant_id = ?', [tenant.id]);
    const scim = await stack.service.request('GET', `/scim/v2/directories/${directory!.id}/Users`, undefined, { authorization: `Bearer ${token}` });
    expect(scim.status).toBe(200);
    expect(await eventOf('directory.created')).toMatchObject({ actor_type: 'portal' });
  });

  it("audit: the tenant's events browsed and exported as CSV, this tenant's only", async () => {
    const other = (await stack.service.request('POST', '/v1/tenants', { slug: uniqueSlug('other'), name: 'Other' })).body.tenant;
    await openPortal('audit');
    await expect.poll(() => page.getByRole('cell', { name: 'invitation.created' }).count()).toBeGreaterThan(0);
    await checked('13-audit');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'download CSV' }).click()]);
    const csv = await readFile((await download.path())!, 'utf8');
    expect(csv.split('\n')[0]).toContain('action');
    expect(csv).toContain('invitation.created');
    expect(csv).toContain(tenant.id);
    expect(csv).not.toContain(other.id);
    expect(await eventOf('portal.link_opened')).toMatchObject({ actor_type: 'portal' });
  });

  it('a used link and an expired one each show a page that says so; a URL naming another tenant gets nothing of it', async () => {
    const link = (await stack.service.request('POST', `/v1/tenants/${tenant.id}/portal-links`, { intent: 'members' })).body;
    await page.goto(local(link.url));
    await page.getByRole('button', { name: 'Open the admin portal' }).click();
    await page.waitForURL('**/portal/members');
    await page.goto(local(link.url));
    await page.getByRole('button', { name: 'Open the admin portal' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('This link has been used');
    await checked('14-link-used');
    const expired = (await stack.service.request('POST', `/v1/tenants/${tenant.id}/portal-links`, { intent: 'members' })).body;
    await sql(`update portal_links set expires_at = now() - interval '1 second' where expires_at > now() and tenant_id = ?`, [tenant.id]);
    await page.goto(local(expired.url));
    await page.getByRole('button', { name: 'Open the admin portal' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('This link has expired');
    await checked('15-link-expired');

    const other = (await stack.service.request('POST', '/v1/tenants', { slug: uniqueSlug('foreign'), name: 'Foreign' })).body.tenant;
    await stack.service.request('POST', `/v1/tenants/${other.id}/invitations`, { email: `secret@${other.slug}.example`, send_email: false });
    await openPortal('invitations');
    await page.goto(`${stack.service.baseUrl}/portal/invitations?tenant_id=${other.id}`);
    expect(await page.content()).not.toContain(`secret@${other.slug}.example`);
    expect((await page.goto(`${stack.service.baseUrl}/portal/audit?tenant_id=${other.id}`))?.status()).toBe(404);
    await checked('16-not-part-of-session');
  });

  it('signing out ends the session: its pages then say there is no portal session', async () => {
    await page.goto(`${stack.service.baseUrl}/portal/invitations`);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Signed out');
    await checked('17-signed-out');
    expect((await page.goto(`${stack.service.baseUrl}/portal/invitations`))?.status()).toBe(401);
    await checked('18-no-session');
  });

  it('the accessibility check finds what it is there for: a field without a label on the page is a critical violation', async () => {
    await page.evaluate(`document.querySelector('main').insertAdjacentHTML('beforeend', '<input type="text" name="unlabelled">')`);
    expect((await accessibilityViolations()).map((v) => v.id)).toContain('label');
  });

  it('no request of any page went to another origin', () => {
    const origin = new URL(stack.service.baseUrl).origin;
    // The return_url is a link the person may follow, never a request the pages make.
    expect(requested.filter((url) => new URL(url).origin !== origin)).toEqual([]);
    expect(requested.length).toBeGreaterThan(20);
  });
});
