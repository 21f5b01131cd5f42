import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimsOf } from '../support/demoAppSession.ts';
import { eventually } from '../support/eventually.ts';
import { startPysamlIdp, type PysamlIdp } from '../support/pysamlIdp.ts';
import { firstSamlSignOn, type SamlIdpLogin } from '../support/samlFirstSignOn.ts';
import { startSamlSignOnRig, type SamlSignOnRig } from '../support/samlSignOnRig.ts';
import { ssoSignedInMember } from '../support/ssoSignedInMember.ts';
import { verifiedDomainTenant, type VerifiedDomainTenant } from '../support/verifiedDomainTenant.ts';

/**
 * SPEC-EXTENSIONS §14 through a second SAML implementation others wrote: pysaml2's IdP (test/support/pysamlIdp/), in
 * its own process with its own key pair. The tenant connects it by pasting the metadata pysaml2 serves; the customer's
 * IT admin registers the connection's SP metadata there; a user who types her address at the demo app's login is sent
 * to pysaml2, signs in, and pysaml2's signed response brings her back through the SAML broker: her first token carries
 * the tenant's claims, and the registry lists her as a member with source sso.
 */
const PASSWORD = 'Jane-Pysaml-Password-1';

let rig: SamlSignOnRig;
let idp: PysamlIdp;
let tenant: VerifiedDomainTenant;
let connection: { id: string; idp_alias: string; sp: { entity_id: string; metadata_url: string } };

beforeAll(async () => {
  rig = await startSamlSignOnRig();
  tenant = await verifiedDomainTenant(rig.stack.service, rig.dns, 'pysaml-acme');
  idp = await startPysamlIdp({ [`jane@${tenant.domain}`]: { password: PASSWORD, givenName: 'Jane', sn: 'Pysaml' } });
  const metadataXml = await (await fetch(idp.metadataUrl)).text();
  const res = await rig.stack.service.request('POST', `/v1/tenants/${tenant.id}/sso-connections`, { protocol: 'saml', metadata_xml: metadataXml, domains: [tenant.domain] });
  expect(res.status).toBe(201);
  connection = res.body;
  // The SP's descriptor is Keycloak's, there once the tenant's actor has made the identity provider.
  const spMetadata = await eventually(async () => {
    const answer = await fetch(connection.sp.metadata_url);
    return answer.ok ? answer.text() : undefined;
  }, 30_000, "the SP's metadata");
  expect(spMetadata).toContain(`entityID="${connection.sp.entity_id}"`);
  await idp.registerServiceProvider(spMetadata);
}, 180_000);
afterAll(async () => {
  await idp?.close();
  await rig?.close();
});

/** pysaml2's login form (ours, in idp.py), reached at the IdP's own origin. */
const pysamlLogin: SamlIdpLogin = {
  form: (page) => page.locator('#pysaml-password'),
  async signIn(page, email) {
    expect(new URL(page.url()).origin).toBe(new URL(idp.metadataUrl).origin);
    await page.fill('#pysaml-login', email);
    await page.fill('#pysaml-password', PASSWORD);
    await page.click('#pysaml-submit');
  },
};

describe("SAML sign-on through pysaml2's identity provider", () => {
  it("sends jane@<domain> to pysaml2's IdP; back, her first token carries the tenant's claims, and she is a member with source sso", async () => {
    const email = `jane@${tenant.domain}`;
    const tokens = await firstSamlSignOn(rig.browser, rig.demoApp.url, email, pysamlLogin, { firstName: 'Jane', lastName: 'Pysaml' }, 'pysaml');
    expect(claimsOf(tokens.access_token)).toMatchObject({ tenant_id: tenant.id, tenant_slug: tenant.slug, org_roles: ['MEMBER'], membership_status: 'active', claims_source: 'registry' });
    const member = await ssoSignedInMember(rig.stack.service, tenant.id, email, connection.idp_alias);
    expect(member).toMatchObject({ source: 'sso', status: 'active', roles: ['MEMBER'], email });
  }, 120_000);
});
