import { describe, expect, it } from 'vitest';
import { refusedIssuerUrl } from '../../../domain/sso/issuerAddressRule.ts';

describe("refusedIssuerUrl: an issuer's URLs are https at public hosts, unless SSO_ISSUER_ALLOWED_HOSTS names the host", () => {
  it('accepts https at a public name or address', () => {
    expect(refusedIssuerUrl('https://login.acme.com/realms/acme', undefined)).toBeUndefined();
    expect(refusedIssuerUrl('https://93.184.216.34/token', undefined)).toBeUndefined();
  });

  it('refuses http at any host the setting does not name, public ones included', () => {
    expect(refusedIssuerUrl('http://login.acme.com/realms/acme', undefined)).toContain('not https');
    expect(refusedIssuerUrl('http://login.acme.com/token', ['idp.internal'])).toContain('not https');
  });

  it('refuses loopback, private, link-local and metadata hosts by default, naming SSO_ISSUER_ALLOWED_HOSTS', () => {
    for (const url of ['https://127.0.0.1/x', 'https://10.0.0.7/token', 'https://169.254.169.254/latest', 'https://[::1]/auth', 'https://[fd00::1]/jwks', 'https://localhost/x', 'https://metadata.google.internal/x']) {
      const refusal = refusedIssuerUrl(url, undefined);
      expect(refusal, url).toContain('SSO_ISSUER_ALLOWED_HOSTS');
      expect(refusal, url).not.toContain('AUDIT_STREAM_ALLOWED_HOSTS');
    }
  });

  it('with the setting, allows only the hosts it names, over http too, whatever they are', () => {
    expect(refusedIssuerUrl('http://127.0.0.1:8080/realms/x', ['127.0.0.1'])).toBeUndefined();
    expect(refusedIssuerUrl('https://idp.internal/token', ['idp.internal'])).toBeUndefined();
    expect(refusedIssuerUrl('https://login.acme.com/token', ['idp.internal'])).toBe('login.acme.com is not in SSO_ISSUER_ALLOWED_HOSTS');
  });

  it('refuses what is no http(s) URL and a URL carrying credentials', () => {
    for (const url of ['file:///etc/passwd', 'javascript:alert(1)', 'not a url', 'https://user:pw@login.acme.com/x']) expect(refusedIssuerUrl(url, undefined), url).toBeDefined();
  });
});
