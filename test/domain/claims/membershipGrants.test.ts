import { describe, expect, it } from 'vitest';
import { membershipGrantsOf } from '../../../domain/claims/membershipGrants.ts';
import { RegistryCache } from '../../../domain/reads/registryCache.ts';
import { memberRecord, UserMemberships } from '../../support/fakes/userMemberships.ts';

function cacheAt(staleIfErrorMs: number) {
  let now = 1_000_000;
  const cache = new RegistryCache({ ttlMs: 30_000, staleIfErrorMs, now: () => now });
  return { cache, advance: (ms: number) => (now += ms) };
}

describe('membershipGrantsOf', () => {
  it("reads a user's records once, then answers from the cache; a user of no tenant too", async () => {
    const members = new UserMemberships([memberRecord('t-1', 'u-1', 'active', ['MEMBER'], ['reports:read'])]);
    const { cache } = cacheAt(0);
    for (let i = 0; i < 3; i++) {
      expect(await membershipGrantsOf(members, 'u-1', cache)).toEqual([{ tenantId: 't-1', status: 'active', roles: ['MEMBER'], permissions: ['reports:read'], breakGlass: false }]);
      expect(await membershipGrantsOf(members, 'u-2', cache)).toEqual([]);
    }
    expect(members.reads).toBe(2);
  });

  it('reads again once the user was invalidated', async () => {
    const members = new UserMemberships([memberRecord('t-1', 'u-1', 'active', ['MEMBER'])]);
    const { cache } = cacheAt(0);
    await membershipGrantsOf(members, 'u-1', cache);
    members.records[0]!.status = 'inactive';
    cache.invalidateUser('u-1');
    expect(await membershipGrantsOf(members, 'u-1', cache)).toMatchObject([{ status: 'inactive' }]);
    expect(members.reads).toBe(2);
  });

  it('with the store unreachable, answers grants stored within staleIfErrorMs, and fails past it or for a user never read', async () => {
    const members = new UserMemberships([memberRecord('t-1', 'u-1', 'active', ['MEMBER'])]);
    const { cache, advance } = cacheAt(60_000);
    await membershipGrantsOf(members, 'u-1', cache);
    members.failing = true;
    // The listener lost its connection: nothing is served from memory, the store is asked and fails.
    cache.suspend();
    expect(await membershipGrantsOf(members, 'u-1', cache)).toMatchObject([{ tenantId: 't-1', status: 'active' }]);
    await expect(membershipGrantsOf(members, 'u-2', cache)).rejects.toThrow('store unreachable');
    advance(60_001);
    await expect(membershipGrantsOf(members, 'u-1', cache)).rejects.toThrow('store unreachable');
  });
});
