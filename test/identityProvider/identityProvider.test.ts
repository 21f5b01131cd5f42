import { describe, expect, it } from 'vitest';
import { TENANT_MEMBERSHIPS_ATTRIBUTE, userAttributesWith, type PushedMembership } from '../../identityProvider/identityProvider.ts';
import { PUSHED_SIGN_IN_DEFAULTS } from '../support/pushedSignInDefaults.ts';

const HOME = '6f1c2a3e-0000-4000-8000-000000000001';
const OTHER = '6f1c2a3e-0000-4000-8000-000000000002';
const pushed = (tenant_id: string, tenant_slug: string, org_roles: string[] = []): PushedMembership => ({
  tenant_id,
  tenant_slug,
  plan: 'starter',
  tenant_status: 'active',
  products: [],
  org_roles,
  permissions: [],
  membership_status: 'active',
  ...PUSHED_SIGN_IN_DEFAULTS,
});

describe('userAttributesWith', () => {
  it("replaces only this tenant's value of tenant_memberships, keeping the values ordered by tenant slug", () => {
    const before = { [TENANT_MEMBERSHIPS_ATTRIBUTE]: [JSON.stringify(pushed(OTHER, 'zeta'))], tenant_id: [OTHER], department: ['research'] };
    const after = userAttributesWith(before, 'alpha', pushed(HOME, 'alpha', ['MEMBER']));
    expect(after[TENANT_MEMBERSHIPS_ATTRIBUTE]).toEqual([JSON.stringify(pushed(HOME, 'alpha', ['MEMBER'])), JSON.stringify(pushed(OTHER, 'zeta'))]);
    expect(after).toMatchObject({ department: ['research'], tenant_id: [OTHER] });
    expect(after.org_roles).toBeUndefined();
  });

  it("writes the top-level claim attributes for the tenant the user's tenant_id names, or for any when it names none", () => {
    expect(userAttributesWith({ tenant_id: [HOME] }, 'home', pushed(HOME, 'home', ['IT_ADMIN']))).toMatchObject({ tenant_slug: ['home'], org_roles: ['IT_ADMIN'] });
    expect(userAttributesWith({}, 'other', pushed(OTHER, 'other', ['MEMBER']))).toMatchObject({ tenant_id: [OTHER], tenant_slug: ['other'], org_roles: ['MEMBER'] });
  });

  it("removing the home tenant's value clears the top-level attributes, recognised by the removed value's tenant id or else the top-level slug", () => {
    const home = userAttributesWith({ tenant_id: [HOME] }, 'home', pushed(HOME, 'home', ['IT_ADMIN']));
    expect(userAttributesWith(home, 'home', null)).toEqual({});
    // Pushed before tenant_memberships existed: only the top-level attributes say which tenant they describe.
    const legacy = { tenant_id: [HOME], tenant_slug: ['home'], plan: ['starter'], org_roles: ['IT_ADMIN'] };
    expect(userAttributesWith(legacy, 'home', null)).toEqual({});
    expect(userAttributesWith(legacy, 'other', null)).toEqual(legacy);
  });
});
