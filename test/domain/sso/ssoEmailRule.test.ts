import { describe, expect, it } from 'vitest';
import { emailDomainOf, ssoEmailVerdict } from '../../../domain/sso/ssoEmailRule.ts';

const connection = { domains: ['acme.test', 'acme-eu.test'], state: 'active' as const };
const verified = new Set(['acme.test', 'acme-eu.test', 'other.test']);

describe('ssoEmailVerdict: a connection vouches only for addresses at its own verified domains', () => {
  it("believes an address at one of the connection's domains that the tenant holds verified, in any letter case", () => {
    expect(ssoEmailVerdict(connection, verified, 'Jane@ACME.test')).toEqual({ allowed: true, emailDomain: 'acme.test' });
    expect(ssoEmailVerdict(connection, verified, 'joe@acme-eu.test')).toEqual({ allowed: true, emailDomain: 'acme-eu.test' });
  });

  it("refuses another tenant's domain, a domain of the tenant that is not the connection's, and a subdomain or a look-alike", () => {
    for (const email of ['ceo@victim.test', 'x@other.test', 'x@sub.acme.test', 'x@acme.test.evil.test', 'x@xacme.test']) {
      expect(ssoEmailVerdict(connection, verified, email)).toMatchObject({ allowed: false, reason: 'domain_not_of_connection' });
    }
  });

  it('judges the domain after the last @, so a quoted local part naming a verified domain does not pass', () => {
    expect(ssoEmailVerdict(connection, verified, '"jane@acme.test"@victim.test')).toEqual({ allowed: false, reason: 'domain_not_of_connection', emailDomain: 'victim.test' });
  });

  it('refuses a domain of the connection the tenant no longer holds verified', () => {
    expect(ssoEmailVerdict(connection, new Set(['acme.test']), 'joe@acme-eu.test')).toEqual({ allowed: false, reason: 'domain_not_verified', emailDomain: 'acme-eu.test' });
  });

  it('refuses every address while the connection is inactive, and a sign-in with no address at all', () => {
    expect(ssoEmailVerdict({ ...connection, state: 'inactive' }, verified, 'jane@acme.test')).toMatchObject({ allowed: false, reason: 'connection_inactive' });
    for (const email of [undefined, '', 'jane', 'jane@']) expect(ssoEmailVerdict(connection, verified, email)).toEqual({ allowed: false, reason: 'no_email', emailDomain: null });
  });

  it('refuses every sign-in through a deleted connection, its domains and an address at them included', () => {
    for (const email of ['jane@acme.test', undefined]) {
      expect(ssoEmailVerdict({ ...connection, state: 'deleted' }, verified, email)).toMatchObject({ allowed: false, reason: 'connection_deleted' });
    }
  });

  it('refuses everything through a connection with no domains', () => {
    expect(ssoEmailVerdict({ domains: [], state: 'active' }, verified, 'jane@acme.test')).toMatchObject({ allowed: false, reason: 'domain_not_of_connection' });
  });
});

describe('emailDomainOf', () => {
  it('keeps at most a domain name’s length of what an address asserts', () => {
    expect(emailDomainOf(`x@${'a'.repeat(400)}`)).toHaveLength(253);
  });
});
