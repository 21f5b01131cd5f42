import { describe, expect, it } from 'vitest';
import { claimableDomain } from '../../../domain/domains/domainName.ts';

describe('claimableDomain', () => {
  it('lower-cases a domain name and drops its trailing dot; subdomains and reserved test names are claimable', () => {
    expect(claimableDomain('Acme.COM.')).toBe('acme.com');
    expect(claimableDomain('eu.acme.com')).toBe('eu.acme.com');
    expect(claimableDomain('acme.test')).toBe('acme.test');
  });

  it('refuses public suffixes, ICANN and private ones (the Public Suffix List)', () => {
    for (const suffix of ['co.uk', 'com.au', 'github.io', 'blogspot.com']) expect(() => claimableDomain(suffix), suffix).toThrow(/public suffix/);
  });

  it('refuses consumer mail domains and their subdomains', () => {
    for (const name of ['gmail.com', 'outlook.com', 'yahoo.co.uk', 'mail.yahoo.co.uk']) expect(() => claimableDomain(name), name).toThrow(/consumer mail/);
  });

  it('refuses what is not a domain name: one label, an address, spaces, empty labels', () => {
    for (const name of ['com', 'localhost', '192.0.2.1', 'acme corp.com', 'a..b', '-acme.com', '']) expect(() => claimableDomain(name), name).toThrow(/domain/);
  });
});
