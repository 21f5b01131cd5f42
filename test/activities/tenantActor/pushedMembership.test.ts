import { describe, expect, it } from 'vitest';
import { pushedMembershipOf } from '../../../activities/tenantActor/pushedMembership.ts';
import type { CachedTenant } from '../../../domain/reads/tenantCache.ts';
import type { ProductClient } from '../../../domain/signIn/productClients.ts';
import { memberRecord } from '../../support/fakes/userMemberships.ts';

const NOW = Date.parse('2026-12-02T12:00:00Z');
const tenant: CachedTenant = {
  id: '6f1c2a3e-0000-4000-8000-000000000001',
  slug: 'acme',
  plan: 'growth',
  status: 'active',
  entitlements: [
    { product: 'analytics', enabled: true, expiresAt: null },
    { product: 'automation', enabled: true, expiresAt: NOW - 1 },
  ],
  signIn: { require_sso: true, mfa: 'required', session_max_hours: 8 },
  ssoAliases: ['sso-1'],
};
const clients: ProductClient[] = [
  { clientId: 'reports', product: 'analytics', fail: 'open' },
  { clientId: 'dashboards', product: 'analytics', fail: 'closed' },
  { clientId: 'flows', product: 'automation', fail: 'closed' },
  { clientId: 'exports', product: 'data-export', fail: 'open' },
];

describe('pushedMembershipOf (SPEC-EXTENSIONS §15: what the extension decides alone by)', () => {
  it("carries the tenant's policy, the member's break-glass mark, and the products' clients as the tenant's current entitlements make them", () => {
    const member = { ...memberRecord(tenant.id, 'ada', 'active', ['MEMBER']), breakGlass: true };
    expect(pushedMembershipOf(tenant, member, NOW, clients)).toMatchObject({
      tenant_status: 'active',
      membership_status: 'active',
      products: ['analytics'],
      break_glass: true,
      sign_in: { require_sso: true, mfa: 'required', session_max_hours: 8 },
      entitled_clients: ['dashboards', 'reports'],
      // automation's entitlement expired: its client is refused like one of a product never held.
      refused_clients: ['exports', 'flows'],
      fail_closed_clients: ['dashboards', 'flows'],
    });
  });

  it('marks no break-glass for a user who is no member, and none for a member whose record says none', () => {
    expect(pushedMembershipOf(tenant, undefined, NOW, clients)).toMatchObject({ membership_status: 'none', break_glass: false });
    expect(pushedMembershipOf(tenant, memberRecord(tenant.id, 'bob', 'inactive'), NOW, [])).toMatchObject({
      membership_status: 'inactive',
      break_glass: false,
      entitled_clients: [],
      refused_clients: [],
      fail_closed_clients: [],
    });
  });
});
