import { describe, expect, it } from 'vitest';
import { nextMetadataRefreshAt, planMetadataRefresh } from '../../../domain/sso/refreshSamlMetadata.ts';
import type { SamlSsoConnectionRecord } from '../../../domain/sso/ssoConnectionRecord.ts';

const HOUR = 3600_000;
const t0 = new Date('2027-01-10T00:00:00Z');
const certificate = (fingerprintSha256: string) => ({ pem: '-----BEGIN CERTIFICATE-----\n', fingerprintSha256, notAfter: new Date('2028-01-01T00:00:00Z') });
const connection = (refresh: Partial<SamlSsoConnectionRecord['metadataRefresh']> = {}): SamlSsoConnectionRecord => ({
  id: '00000000-0000-4000-8000-0000000000a1',
  tenantId: '00000000-0000-4000-8000-0000000000b1',
  protocol: 'saml',
  issuer: 'https://idp.test',
  saml: { entityId: 'https://idp.test', ssoUrl: 'https://idp.test/sso', ssoBinding: 'post', wantAuthnRequestsSigned: false, certificates: [certificate('A')] },
  metadataUrl: 'https://idp.test/metadata',
  metadataRefresh: { refreshedAt: t0, failedAt: null, error: null, ...refresh },
  domains: [],
  state: 'active',
  idpAlias: 'sso-00000000-0000-4000-8000-0000000000a1',
  createdAt: t0,
  updatedAt: t0,
});
const facts = (c: SamlSsoConnectionRecord) => ({ connection: c, tenantId: c.tenantId, verifiedDomains: new Set<string>(), ofTenant: 1 });

describe("a SAML connection's metadata readings", () => {
  it('come a period after the last success, within the hour after a failure since it, and never for metadata given as XML', () => {
    expect(nextMetadataRefreshAt(connection(), 24)).toBe(t0.getTime() + 24 * HOUR);
    const failedAt = new Date(t0.getTime() + 30 * HOUR);
    // The period since the last success has passed: the next try is an hour after the failure, not at once.
    expect(nextMetadataRefreshAt(connection({ failedAt, error: 'HTTP 503' }), 24)).toBe(failedAt.getTime() + HOUR);
    expect(nextMetadataRefreshAt(connection({ failedAt: new Date(t0.getTime() - HOUR) }), 24)).toBe(t0.getTime() + 24 * HOUR);
    expect(nextMetadataRefreshAt({ ...connection(), metadataUrl: null }, 24)).toBeUndefined();
  });

  it('a failure keeps the certificates and is audited once per streak; a new certificate is an sso.connection_changed and a sync', () => {
    const asOf = new Date(t0.getTime() + 24 * HOUR);
    const failed = planMetadataRefresh('https://idp.test/metadata', { failed: 'HTTP 503' }, asOf)(facts(connection()), asOf);
    expect(failed).toMatchObject({ sync: false, event: { action: 'sso.metadata_refresh_failed', metadata: { error: 'HTTP 503' } } });
    expect(failed.put).toMatchObject({ saml: { certificates: [{ fingerprintSha256: 'A' }] }, metadataRefresh: { refreshedAt: t0, failedAt: asOf, error: 'HTTP 503' } });
    const again = planMetadataRefresh('https://idp.test/metadata', { failed: 'HTTP 503' }, asOf)(facts(failed.put as SamlSsoConnectionRecord), asOf);
    expect(again.event).toBeUndefined();
    const metadata = { ...connection().saml, certificates: [certificate('A'), certificate('B')] };
    const rolled = planMetadataRefresh('https://idp.test/metadata', { metadata }, asOf)(facts(connection()), asOf);
    expect(rolled).toMatchObject({ result: { providerChanged: true }, event: { action: 'sso.connection_changed', metadata: { changes: { certificates: { added: ['B'], removed: [] } } } } });
    expect(rolled.sync).toBeUndefined();
    const same = planMetadataRefresh('https://idp.test/metadata', { metadata: connection().saml }, asOf)(facts(connection()), asOf);
    expect(same).toMatchObject({ sync: false, result: { providerChanged: false }, put: { metadataRefresh: { refreshedAt: asOf } } });
    expect(same.event).toBeUndefined();
  });
});
