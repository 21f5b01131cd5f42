import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAML_POLICY, SAML_PROVIDER_ID } from '../../identityProvider/keycloakSamlProvider.ts';
import { claimsOf } from '../support/demoAppSession.ts';
import { eventually } from '../support/eventually.ts';
import { keycloakAdmin } from '../support/keycloakAdmin.ts';
import { keycloakContext } from '../support/keycloakContext.ts';
import { firstSamlSignOn, type SamlIdpLogin } from '../support/samlFirstSignOn.ts';
import { startSamlSignOnRig, type SamlSignOnRig } from '../support/samlSignOnRig.ts';
import { ssoSignedInMember } from '../support/ssoSignedInMember.ts';
import { verifiedDomainTenant, type VerifiedDomainTenant } from '../support/verifiedDomainTenant.ts';

/**
 * SPEC-EXTENSIONS §14 against the run's real Keycloak, in a real browser: a second realm, `customer-saml-idp`, is
 * Acme's own SAML IdP (Keycloak's SAML implementation, not ours). The tenant connects it by its metadata URL and
 * enters the connection's SP values at that IdP, as a customer's IT admin would; a user of that realm who types her
 * address at the demo app's login is sent there, signs in, comes back through the SAML broker, and her first token
 * carries the tenant's claims; the registry lists her as a member with source sso. The identity provider is secure
 * by default, and a setting changed behind the registry's back is idp.sso_sync_failed and put right by the next sync.
 */
const CUSTOMER_REALM = 'customer-saml-idp';
const PASSWORD = 'Jane-Saml-Password-1';

let rig: SamlSignOnRig;
let tenant: VerifiedDomainTenant;
let connection: { id: string; idp_alias: string; sp: { entity_id: string; acs_url: string; metadata_url: string } };

/** The customer's SAML IdP: a realm of the same Keycloak, with Jane. Its metadata is Keycloak's own descriptor. */
async function customerIdp(domain: string): Promise<string> {
  const admin = await keycloakAdmin();
  if (!(await admin.realms.findOne({ realm: CUSTOMER_REALM }))) await admin.realms.create({ realm: CUSTOMER_REALM, enabled: true });
  await admin.users.create({
    realm: CUSTOMER_REALM,
    username: `jane@${domain}`,
    email: `jane@${domain}`,
    emailVerified: true,
    firstName: 'Jane',
    lastName: 'Acme',
    enabled: true,
    credentials: [{ type: 'password', value: PASSWORD, temporary: false }],
  });
  return `${keycloakContext().url}/realms/${CUSTOMER_REALM}/protocol/saml/descriptor`;
}

/** What the customer's IT admin enters at its IdP from the connection's `sp` values: a SAML client for that SP. */
async function enterSpAtCustomerIdp(sp: { entity_id: string; acs_url: string }): Promise<void> {
  const admin = await keycloakAdmin();
  await admin.clients.create({
    realm: CUSTOMER_REALM,
    clientId: sp.entity_id,
    protocol: 'saml',
    enabled: true,
    redirectUris: [sp.acs_url],
    attributes: {
      'saml_assertion_consumer_url_post': sp.acs_url,
      'saml.assertion.signature': 'true',
      'saml.server.signature': 'true',
      'saml.signature.algorithm': 'RSA_SHA256',
      'saml.client.signature': 'false',
      'saml.force.name.id.format': 'true',
      'saml_name_id_format': 'email',
      'saml.authnstatement': 'true',
      'saml.encrypt': 'false',
    },
  });
}

beforeAll(async () => {
  rig = await startSamlSignOnRig();
  tenant = await verifiedDomainTenant(rig.stack.service, rig.dns, 'saml-acme');
  const metadataUrl = await customerIdp(tenant.domain);
  const res = await rig.stack.service.request('POST', `/v1/tenants/${tenant.id}/sso-connections`, { protocol: 'saml', metadata_url: metadataUrl, domains: [tenant.domain] });
  expect(res.status).toBe(201);
  connection = res.body;
  await enterSpAtCustomerIdp(connection.sp);
}, 180_000);
afterAll(async () => {
  await rig?.close();
});

/** The customer realm's login page, where Jane's address is already filled in unless Keycloak left it out. */
const customerLogin: SamlIdpLogin = {
  form: (page) => page.locator('#password'),
  async signIn(page, email) {
    expect(new URL(page.url()).pathname).toContain(`/realms/${CUSTOMER_REALM}/`);
    if (!(await page.inputValue('#username'))) await page.fill('#username', email);
    await page.fill('#password', PASSWORD);
    await page.click('[type=submit]');
  },
};

const identityProvider = async () => (await (await keycloakAdmin()).identityProviders.findOne({ alias: connection.idp_alias })) ?? undefined;

describe("SAML sign-on through the tenant's own identity provider", () => {
  it('is set up in Keycloak secure by default: the extension\'s SAML broker, signed assertions checked against the metadata\'s certificate, linked to the organization', async () => {
    const provider = await eventually(identityProvider, 30_000, 'the SAML identity provider');
    expect(provider).toMatchObject({
      providerId: SAML_PROVIDER_ID,
      enabled: true,
      trustEmail: false,
      firstBrokerLoginFlowAlias: 'tenant-registry sso first broker login',
      postBrokerLoginFlowAlias: 'tenant-registry sso post broker login',
      config: expect.objectContaining({ ...SAML_POLICY, entityId: connection.sp.entity_id, 'kc.org.domain': tenant.domain }),
    });
    expect(provider.config?.signingCertificate).toMatch(/^MII/);
    const [organization] = (await (await keycloakAdmin()).organizations.find({ search: tenant.slug })).filter((o) => o.alias === tenant.slug);
    await eventually(async () => (await (await keycloakAdmin()).organizations.listIdentityProviders({ orgId: organization!.id! })).some((idp) => idp.alias === connection.idp_alias), 20_000, 'linked');
    // sp.metadata_url is Keycloak's broker descriptor, naming the entity id and ACS URL the customer entered.
    const descriptor = await (await fetch(connection.sp.metadata_url)).text();
    expect(descriptor).toContain(`entityID="${connection.sp.entity_id}"`);
    expect(descriptor).toContain(`Location="${connection.sp.acs_url}"`);
  });

  it("sends jane@<domain> to the customer's SAML IdP; back, her first token carries the tenant's claims, and she is a member with source sso", async () => {
    const email = `jane@${tenant.domain}`;
    const tokens = await firstSamlSignOn(rig.browser, rig.demoApp.url, email, customerLogin, { firstName: 'Jane', lastName: 'Acme' }, 'saml');
    expect(claimsOf(tokens.access_token)).toMatchObject({ tenant_id: tenant.id, tenant_slug: tenant.slug, org_roles: ['MEMBER'], membership_status: 'active', claims_source: 'registry' });
    const member = await ssoSignedInMember(rig.stack.service, tenant.id, email, connection.idp_alias);
    expect(member).toMatchObject({ source: 'sso', status: 'active', roles: ['MEMBER'], email });
  }, 120_000);

  it('takes a setting changed behind the registry\'s back as idp.sso_sync_failed, and the next sync puts it right', async () => {
    const admin = await keycloakAdmin();
    const before = (await identityProvider())!;
    await admin.identityProviders.update({ alias: connection.idp_alias }, { ...before, config: { ...before.config, validateSignature: 'false', wantAssertionsSigned: 'false' } });
    expect((await identityProvider())?.config).toMatchObject({ validateSignature: 'false' });

    // Any change of the connection syncs its identity provider: here, setting it inactive.
    expect((await rig.stack.service.request('PATCH', `/v1/sso-connections/${connection.id}`, { state: 'inactive' })).status).toBe(200);
    const failure = await eventually(async () => {
      const audit = (await rig.stack.service.request('GET', `/v1/audit?tenant_id=${tenant.id}&limit=500`)).body.items as { action: string; target_id?: string; metadata: Record<string, unknown> }[];
      return audit.find((e) => e.action === 'idp.sso_sync_failed' && e.target_id === connection.id);
    }, 30_000, 'idp.sso_sync_failed');
    expect(String(failure.metadata.message)).toMatch(/validateSignature/);
    expect(String(failure.metadata.message)).toMatch(/wantAssertionsSigned/);
    await eventually(async () => ((await identityProvider())?.config?.validateSignature === 'true' ? true : undefined), 30_000, 'the setting put back');
    expect(await identityProvider()).toMatchObject({ enabled: false, config: expect.objectContaining(SAML_POLICY) });
    // The sync after it finds nothing changed behind its back: the same failure is not audited again.
    expect((await rig.stack.service.request('PATCH', `/v1/sso-connections/${connection.id}`, { state: 'active' })).status).toBe(200);
    await eventually(async () => ((await identityProvider())?.enabled === true ? true : undefined), 30_000, 'enabled again');
    const audit = (await rig.stack.service.request('GET', `/v1/audit?tenant_id=${tenant.id}&limit=500`)).body.items as { action: string; target_id?: string }[];
    expect(audit.filter((e) => e.action === 'idp.sso_sync_failed' && e.target_id === connection.id)).toHaveLength(1);
  }, 90_000);
});
