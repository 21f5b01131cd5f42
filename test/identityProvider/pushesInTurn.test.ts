import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TENANT_MEMBERSHIPS_ATTRIBUTE, userAttributesWith, type IdentityProvider, type PushedMembership } from '../../identityProvider/identityProvider.ts';
import { pushesInTurn } from '../../identityProvider/pushesInTurn.ts';
import { withUserAttributeTurn } from '../../store/userAttributeTurns.ts';
import { startTestService, type TestService } from '../support/testService.ts';
import { PUSHED_SIGN_IN_DEFAULTS } from '../support/pushedSignInDefaults.ts';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  await service?.close();
});

const membership = (slug: string): PushedMembership => ({
  tenant_id: '6f1c2a3e-0000-4000-8000-00000000000' + slug.length,
  tenant_slug: slug,
  plan: 'starter',
  tenant_status: 'active',
  products: [],
  org_roles: ['MEMBER'],
  permissions: [],
  membership_status: 'active',
  ...PUSHED_SIGN_IN_DEFAULTS,
});

/** Keycloak's push as the admin API allows it: read the user, merge, write the whole user back, with time in between. */
function readMergeWriteProvider(): { idp: IdentityProvider; attributes: () => Record<string, string[]> } {
  let stored: Record<string, string[]> = {};
  const pushMembership: IdentityProvider['pushMembership'] = async (_userId, slug, value) => {
    const read = stored;
    await sleep(50);
    stored = userAttributesWith(read, slug, value);
  };
  return { idp: { pushMembership } as unknown as IdentityProvider, attributes: () => stored };
}

describe('pushesInTurn', () => {
  it("three tenants' pushes into one user at once keep all three values when they take turns", async () => {
    const { idp, attributes } = readMergeWriteProvider();
    const inTurn = pushesInTurn(idp, (userId, work) => withUserAttributeTurn(service.deps.orm, userId, work));
    await Promise.all(['alpha', 'beta', 'gamma'].map((slug) => inTurn.pushMembership('user-1', slug, membership(slug))));
    expect(attributes()[TENANT_MEMBERSHIPS_ATTRIBUTE]?.map((value) => (JSON.parse(value) as PushedMembership).tenant_slug)).toEqual(['alpha', 'beta', 'gamma']);
  });

  it('without turns the same pushes lose values (what the turns are for)', async () => {
    const { idp, attributes } = readMergeWriteProvider();
    await Promise.all(['alpha', 'beta', 'gamma'].map((slug) => idp.pushMembership('user-1', slug, membership(slug))));
    expect(attributes()[TENANT_MEMBERSHIPS_ATTRIBUTE]).toHaveLength(1);
  });

  it('other calls reach the adapter itself, its private state intact', async () => {
    class Adapter {
      readonly #name = 'adapter';
      ping(): Promise<string> {
        return Promise.resolve(this.#name);
      }
    }
    const inTurn = pushesInTurn(new Adapter() as unknown as IdentityProvider, (_userId, work) => work());
    expect(await (inTurn as unknown as Adapter).ping()).toBe('adapter');
  });
});
