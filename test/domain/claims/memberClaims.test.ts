import { describe, expect, it } from 'vitest';
import { memberClaimsOf, tenantOfMemberships } from '../../../domain/claims/memberClaims.ts';
import type { MembershipGrant } from '../../../domain/members/memberRecord.ts';

const grant = (tenantId: string, status: MembershipGrant['status']): MembershipGrant => ({ tenantId, status, roles: ['IT_ADMIN'], permissions: ['audit:read'], breakGlass: false });

describe('tenantOfMemberships', () => {
  it('is the single active membership, pending and inactive ones aside', () => {
    expect(tenantOfMemberships([grant('a', 'pending'), grant('b', 'active'), grant('c', 'inactive')])).toEqual({ by: 'id', id: 'b' });
  });

  it('is none with no active membership or with several', () => {
    expect(tenantOfMemberships([])).toBeUndefined();
    expect(tenantOfMemberships([grant('a', 'pending'), grant('b', 'inactive')])).toBeUndefined();
    expect(tenantOfMemberships([grant('a', 'active'), grant('b', 'active')])).toBeUndefined();
  });
});

describe('memberClaimsOf', () => {
  it('gives only an active member its roles and permissions: a pending one (not yet accepted), an inactive one and a non-member none', () => {
    expect(memberClaimsOf(grant('a', 'active'))).toEqual({ org_roles: ['IT_ADMIN'], permissions: ['audit:read'], membership_status: 'active' });
    expect(memberClaimsOf(grant('a', 'pending'))).toEqual({ org_roles: [], permissions: [], membership_status: 'pending' });
    expect(memberClaimsOf(grant('a', 'inactive'))).toEqual({ org_roles: [], permissions: [], membership_status: 'inactive' });
    expect(memberClaimsOf(undefined)).toEqual({ org_roles: [], permissions: [], membership_status: 'none' });
  });
});
