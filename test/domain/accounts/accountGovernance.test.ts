import { describe, expect, it } from 'vitest';
import { governsAccount } from '../../../domain/accounts/accountGovernance.ts';

const A = '00000000-0000-4000-8000-00000000000a';
const B = '00000000-0000-4000-8000-00000000000b';
const tenantA = { tenantId: A, verifiedDomains: ['acme.example'] };

describe('governsAccount: a tenant governs an account at a domain it verified, or one it made that no other tenant has', () => {
  it('an account at a domain the tenant verified, whoever made it and whatever tenants it is in', () => {
    expect(governsAccount(tenantA, { email: 'Ada@ACME.example', madeByTenantId: B, memberOfTenantIds: [A, B] })).toBe(true);
  });

  it('not a subdomain, nor a domain that merely ends the same', () => {
    expect(governsAccount(tenantA, { email: 'ada@eu.acme.example', madeByTenantId: null, memberOfTenantIds: [] })).toBe(false);
    expect(governsAccount(tenantA, { email: 'ada@notacme.example', madeByTenantId: null, memberOfTenantIds: [] })).toBe(false);
  });

  it('an account the tenant made and that is a member of it alone, or of none', () => {
    expect(governsAccount(tenantA, { email: 'ada@gmail.example', madeByTenantId: A, memberOfTenantIds: [A] })).toBe(true);
    expect(governsAccount(tenantA, { email: 'ada@gmail.example', madeByTenantId: A, memberOfTenantIds: [] })).toBe(true);
  });

  it('not an account the tenant made once another tenant has it as a member', () => {
    expect(governsAccount(tenantA, { email: 'ada@gmail.example', madeByTenantId: A, memberOfTenantIds: [A, B] })).toBe(false);
  });

  it("not another tenant's account, nor one no tenant made, even when it is a member of this tenant only", () => {
    expect(governsAccount(tenantA, { email: 'admin@victim.example', madeByTenantId: B, memberOfTenantIds: [B] })).toBe(false);
    expect(governsAccount(tenantA, { email: 'self@gmail.example', madeByTenantId: null, memberOfTenantIds: [A] })).toBe(false);
  });
});
