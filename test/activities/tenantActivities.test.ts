import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MockActivityEnvironment } from '@temporalio/testing';
import { createTenantActivities } from '../../activities/tenantActivities.ts';
import { SimulatedIdentityProvider } from '../../identityProvider/simulatedIdentityProvider.ts';
import { capturedEmails } from '../../store/simulatorControl.ts';
import { postgresStores } from '../../store/postgresStores.ts';
import { startTestService, uniqueSlug, type TestService } from '../support/testService.ts';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.close());

describe('the sendInvite activity', () => {
  it('sends the invite once per provisioning run: a re-run of the same run (a lost workflow task) mails nobody again', async () => {
    const slug = uniqueSlug('once');
    const tenantId: string = (await service.request('POST', '/v1/tenants', { slug, name: 'Once' })).body.tenant.id;
    const idp = new SimulatedIdentityProvider(service.deps.orm, service.baseUrl);
    const activities = createTenantActivities({ stores: postgresStores(service.deps.orm), idp });
    const ref = { tenantId, slug, name: 'Once' };
    const email = `admin@${slug}.example`;
    const { organizationId } = await idp.ensureOrganization(ref);
    const { userId } = await idp.ensureUser(ref, email, undefined);
    await idp.ensureMembership(organizationId, userId);

    // As the worker runs it: inside an activity's context.
    const sendInvite = (...args: Parameters<typeof activities.sendInvite>) =>
      new MockActivityEnvironment().run(activities.sendInvite, ...args) as ReturnType<typeof activities.sendInvite>;
    const runKey = `${randomUUID()}:1:provision`;
    const first = await sendInvite(userId, tenantId, runKey);
    expect(first.inviteUrl).toMatch(/action-token\?key=/);
    const again = await sendInvite(userId, tenantId, runKey);
    expect(again).toEqual({ alreadySent: true });
    expect(await capturedEmails(service.orm, email)).toHaveLength(1);

    // Another run (an operator's retry) and the resend path (no run key) do send.
    await sendInvite(userId, tenantId, `${randomUUID()}:2:provision`);
    await sendInvite(userId);
    expect(await capturedEmails(service.orm, email)).toHaveLength(3);
  });
});
