import { beforeAll, describe, expect, it } from 'vitest';
import { parseSamlMetadata } from '../../../domain/sso/samlMetadata.ts';
import { idpMetadataXml, selfSignedCertificate, type TestCertificate } from '../../support/samlIdentityProviderMetadata.ts';

/** The metadata rule of SAML connections (SPEC-EXTENSIONS §14), on documents with real certificates made by OpenSSL. */
let a: TestCertificate;
let b: TestCertificate;
beforeAll(() => {
  a = selfSignedCertificate(40, 'a');
  b = selfSignedCertificate(400, 'b');
});
const now = new Date();
const refusal = (xml: string) => {
  const verdict = parseSamlMetadata(xml, now);
  return 'refused' in verdict ? verdict.refused : undefined;
};

describe('SAML metadata', () => {
  it('gives the entity id, the HTTP-POST SSO URL and every signing certificate with its SHA-256 fingerprint and not_after', () => {
    const verdict = parseSamlMetadata(idpMetadataXml({ signing: [a, b, a], encryption: [selfSignedCertificate(10, 'enc')] }), now);
    expect(verdict).toEqual({
      metadata: {
        entityId: 'https://idp.corp.test/saml',
        ssoUrl: 'https://idp.corp.test/saml/sso',
        ssoBinding: 'post',
        wantAuthnRequestsSigned: false,
        certificates: [
          { pem: expect.stringMatching(/^-----BEGIN CERTIFICATE-----\n/), fingerprintSha256: a.fingerprintSha256, notAfter: a.notAfter },
          { pem: expect.any(String), fingerprintSha256: b.fingerprintSha256, notAfter: b.notAfter },
        ],
      },
    });
  });

  it('refuses what does not parse as XML, or is no SAML 2.0 identity provider', () => {
    expect(refusal('<md:EntityDescriptor')).toMatch(/does not parse as XML/);
    expect(refusal('not xml at all')).toMatch(/does not parse as XML|no root element|no SAML 2.0 EntityDescriptor/);
    expect(refusal('<EntityDescriptor entityID="x"/>')).toMatch(/no SAML 2.0 EntityDescriptor/);
    expect(refusal(idpMetadataXml({ signing: [a] }).replace('IDPSSODescriptor', 'SPSSODescriptor').replace('IDPSSODescriptor', 'SPSSODescriptor'))).toMatch(/no SAML 2.0 identity provider/);
  });

  it('refuses a DOCTYPE, an internal entity and an external entity (XXE) before parsing', () => {
    const good = idpMetadataXml({ signing: [a] });
    expect(refusal(good.replace('<md:EntityDescriptor', '<!DOCTYPE md:EntityDescriptor>\n<md:EntityDescriptor'))).toMatch(/DOCTYPE or an entity/);
    const xxe = idpMetadataXml({ signing: [a], entityId: '&xxe;', prologue: '<!DOCTYPE r [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>\n' });
    expect(refusal(xxe)).toMatch(/DOCTYPE or an entity/);
    expect(refusal(good.replace('<md:EntityDescriptor', '<!doctype x [<!entity lol "lol">]><md:EntityDescriptor'))).toMatch(/DOCTYPE or an entity/);
  });

  it('refuses metadata that names no signing certificate (none, or encryption only), or one that is no X.509 certificate', () => {
    expect(refusal(idpMetadataXml())).toMatch(/no signing certificate/);
    expect(refusal(idpMetadataXml({ encryption: [a] }))).toMatch(/no signing certificate/);
    expect(refusal(idpMetadataXml({ signing: [{ ...a, base64: 'bm90IGEgY2VydGlmaWNhdGU=' }] }))).toMatch(/does not parse as X.509/);
  });

  it('refuses metadata without an entity id or an SSO service of the POST or Redirect binding, and metadata past its validUntil', () => {
    expect(refusal(idpMetadataXml({ signing: [a], entityId: '' }))).toMatch(/entityID/);
    const noService = idpMetadataXml({ signing: [a] }).replace(/<md:SingleSignOnService[^>]*>/g, '');
    expect(refusal(noService)).toMatch(/no SingleSignOnService/);
    const expired = idpMetadataXml({ signing: [a] }).replace('entityID=', 'validUntil="2020-01-01T00:00:00Z" entityID=');
    expect(refusal(expired)).toMatch(/valid only until 2020-01-01/);
  });

  it('takes the identity provider of an EntitiesDescriptor when it names one, and refuses one naming two', () => {
    const entity = (id: string) => idpMetadataXml({ signing: [a], entityId: id }).replace(/^<\?xml[^>]*>\s*/, '');
    const group = (...ids: string[]) => `<md:EntitiesDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata">${ids.map(entity).join('')}</md:EntitiesDescriptor>`;
    const one = parseSamlMetadata(group('https://one.test'), now);
    expect('metadata' in one && one.metadata.entityId).toBe('https://one.test');
    expect(refusal(group('https://one.test', 'https://two.test'))).toMatch(/2 identity providers/);
  });
});
