import { describe, expect, it } from 'vitest';
import type { SamlSsoProvider } from '../../identityProvider/identityProvider.ts';
import { driftedPolicy, keycloakSamlRepresentation, SAML_POLICY, SAML_PROVIDER_ID, unheldSettings } from '../../identityProvider/keycloakSamlProvider.ts';

const BROKER = 'https://kc.example/realms/r/broker/sso-1';
const flows = { firstBrokerLogin: 'first', postBrokerLogin: 'post' };
const tenant = { tenantId: 't-1', slug: 'acme', name: 'Acme' };
const provider: SamlSsoProvider = {
  protocol: 'saml',
  alias: 'sso-1',
  idpEntityId: 'https://idp.acme.test/saml',
  ssoUrl: 'https://idp.acme.test/saml/sso',
  ssoBinding: 'redirect',
  wantAuthnRequestsSigned: false,
  serviceProvider: { entityId: `${BROKER}/endpoint/descriptor`, acsUrl: `${BROKER}/endpoint`, metadataUrl: `${BROKER}/endpoint/descriptor` },
  certificates: [
    { pem: '-----BEGIN CERTIFICATE-----\nMIIA\nBBB=\n-----END CERTIFICATE-----\n', fingerprintSha256: 'AA:BB', notAfter: new Date('2027-01-01T00:00:00Z') },
    { pem: '-----BEGIN CERTIFICATE-----\nMIIC\n-----END CERTIFICATE-----\n', fingerprintSha256: 'CC:DD', notAfter: new Date('2027-06-01T00:00:00Z') },
  ],
  domains: ['acme.test'],
  enabled: true,
};

describe('a SAML connection as a Keycloak identity provider', () => {
  it('is the extension\'s SAML broker with the secure policy, the metadata\'s certificates and the organization\'s domain', () => {
    const representation = keycloakSamlRepresentation(tenant, provider, flows);
    expect(representation).toMatchObject({ providerId: SAML_PROVIDER_ID, trustEmail: false, firstBrokerLoginFlowAlias: 'first', postBrokerLoginFlowAlias: 'post' });
    expect(representation.config).toMatchObject({
      ...SAML_POLICY,
      validateSignature: 'true',
      wantAssertionsSigned: 'true',
      signingCertificate: 'MIIABBB=,MIIC',
      idpEntityId: provider.idpEntityId,
      singleSignOnServiceUrl: provider.ssoUrl,
      postBindingAuthnRequest: 'false',
      entityId: provider.serviceProvider.entityId,
      'kc.org.domain': 'acme.test',
    });
  });

  it('counts a policy setting held otherwise as drift, and a value of the connection as no drift', () => {
    const wanted = keycloakSamlRepresentation(tenant, provider, flows);
    expect(driftedPolicy(wanted, wanted)).toEqual([]);
    const weakened = { ...wanted, trustEmail: true, config: { ...wanted.config, validateSignature: 'false', wantAssertionsSigned: 'false' } };
    expect(driftedPolicy(weakened, wanted)).toEqual(['trustEmail', 'validateSignature', 'wantAssertionsSigned']);
    const otherCertificate = { ...wanted, config: { ...wanted.config, signingCertificate: 'MIIZ' } };
    expect(driftedPolicy(otherCertificate, wanted)).toEqual([]);
  });

  it('reads back every setting written: one Keycloak did not keep is named', () => {
    const wanted = keycloakSamlRepresentation(tenant, provider, flows);
    expect(unheldSettings(wanted, wanted)).toEqual([]);
    const { signingCertificate: _dropped, ...config } = wanted.config;
    expect(unheldSettings({ ...wanted, enabled: false, config: { ...config, allowedClockSkew: '3600' } }, wanted)).toEqual(['allowedClockSkew', 'enabled', 'signingCertificate']);
  });
});
