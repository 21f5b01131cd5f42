import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, uniqueSlug, type TestService } from '../support/testService.ts';
import { SimulatedIdentityProvider } from '../../identityProvider/simulatedIdentityProvider.ts';
import { nativePool } from '../../store/nativePool.ts';
import { armedFaultSteps, membershipsOfUsers } from '../../store/simulatedIdentityProviderTables.ts';
import { clearFaults, injectFault } from '../../store/simulatorControl.ts';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.close());

describe('simulated identity provider tables', () => {
  // The `ping` step: no other test file arms a fault at it, so whether it is armed is this test's doing.
  it('armedFaultSteps names a step while a fault is armed at it, and no longer once the fault is gone', async () => {
    const slug = uniqueSlug('armed');
    const sql = await nativePool(service.orm);
    await injectFault(service.orm, { kind: 'unavailable', step: 'ping', tenantSlug: slug });
    expect((await armedFaultSteps(sql)).has('ping')).toBe(true);
    await clearFaults(service.orm, { tenantSlug: slug });
    expect((await armedFaultSteps(sql)).has('ping')).toBe(false);
  });

  it('membershipsOfUsers answers the organizations of each user asked for, by alias, and leaves out users without any', async () => {
    const idp = new SimulatedIdentityProvider(service.orm, service.baseUrl);
    const [first, second] = [uniqueSlug('orgs-b'), uniqueSlug('orgs-a')].map((slug) => ({ tenantId: randomUUID(), slug, name: `Tenant ${slug}` }));
    const { organizationId: one } = await idp.ensureOrganization(first!);
    const { organizationId: other } = await idp.ensureOrganization(second!);
    const { userId } = await idp.ensureUser(first!, `admin@${first!.slug}.example.com`, 'Admin');
    await idp.ensureMembership(one, userId);
    await idp.ensureMembership(other, userId);
    const { userId: loner } = await idp.ensureUser(second!, `admin@${second!.slug}.example.com`, 'Admin');
    const found = await membershipsOfUsers(await nativePool(service.orm), [userId, loner, randomUUID()]);
    expect([...found.keys()]).toEqual([userId]);
    expect(found.get(userId)!.map((row) => [row.id, row.alias])).toEqual([
      [other, second!.slug],
      [one, first!.slug],
    ]);
  });
});
