import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApplicationFailure } from '@temporalio/activity';
import { MockActivityEnvironment } from '@temporalio/testing';
import { createTenantActorActivities } from '../../../activities/tenantActor/tenantActorActivities.ts';
import { SimulatedIdentityProvider } from '../../../identityProvider/simulatedIdentityProvider.ts';
import { TENANT_MEMBERSHIPS_ATTRIBUTE, type PushedMembership } from '../../../identityProvider/identityProvider.ts';
import { capturedEmails, clearFaults, injectFault, seedForeignUser } from '../../../store/simulatorControl.ts';
import { postgresStores } from '../../../store/postgresStores.ts';
import { testSecretBox } from '../../support/testSecretBox.ts';
import type { InviteLedger } from '../../../domain/provisioning/inviteLedger.ts';
import type { ProviderStepsDone, ProviderStepsStopped } from '../../../domain/provisioning/provisioningVocabulary.ts';
import { insertMember } from '../../support/memberRows.ts';
import { startTestService, uniqueSlug, type TestService } from '../../support/testService.ts';

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
    const activities = createTenantActorActivities({ stores: postgresStores(service.deps.orm, testSecretBox()), idp });
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

  /** An administrator ready for the invite step, and the step run as the worker runs it, over `ledger`. */
  async function inviteStep(name: string, ledger: (real: InviteLedger) => InviteLedger, patienceMs?: number) {
    const slug = uniqueSlug(name);
    const tenantId: string = (await service.request('POST', '/v1/tenants', { slug, name })).body.tenant.id;
    const idp = new SimulatedIdentityProvider(service.deps.orm, service.baseUrl);
    const stores = postgresStores(service.deps.orm, testSecretBox());
    const activities = createTenantActorActivities({ stores: { ...stores, invites: ledger(stores.invites) }, idp, inviteLedgerPatienceMs: patienceMs });
    const ref = { tenantId, slug, name };
    const email = `admin@${slug}.example`;
    const { organizationId } = await idp.ensureOrganization(ref);
    const { userId } = await idp.ensureUser(ref, email, undefined);
    await idp.ensureMembership(organizationId, userId);
    const runKey = `${randomUUID()}:1:provision`;
    const send = () => new MockActivityEnvironment().run(activities.sendInvite, userId, tenantId, runKey) as ReturnType<typeof activities.sendInvite>;
    return { send, email, runKey, real: stores.invites };
  }
  const unreachable = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

  it('records an invite sent while the ledger database restarts once it answers, and a re-run then sends nothing', async () => {
    let refusals = 2;
    const step = await inviteStep('ledger-restarts', (real) => ({
      wasSent: (runKey) => real.wasSent(runKey),
      recordSent: (...args) => (refusals-- > 0 ? Promise.reject(unreachable()) : real.recordSent(...args)),
    }));
    expect((await step.send()).inviteUrl).toMatch(/action-token\?key=/);
    expect(refusals).toBe(-1);
    expect(await step.real.wasSent(step.runKey)).toBe(true);
    expect(await step.send()).toEqual({ alreadySent: true });
    expect(await capturedEmails(service.orm, step.email)).toHaveLength(1);
  });

  it('answers an invite sent as sent when the ledger stays unreachable, so no retry of the attempt mails again', async () => {
    const step = await inviteStep('ledger-down', (real) => ({ wasSent: (runKey) => real.wasSent(runKey), recordSent: () => Promise.reject(unreachable()) }), 300);
    expect((await step.send()).inviteUrl).toMatch(/action-token\?key=/);
    expect(await capturedEmails(service.orm, step.email)).toHaveLength(1);
  });

  it('waits for the ledger read while its database restarts instead of failing the attempt, then sends once', async () => {
    let refusals = 1;
    const step = await inviteStep('ledger-read', (real) => ({
      wasSent: (runKey) => (refusals-- > 0 ? Promise.reject(unreachable()) : real.wasSent(runKey)),
      recordSent: (...args) => real.recordSent(...args),
    }));
    expect((await step.send()).inviteUrl).toMatch(/action-token\?key=/);
    expect(await capturedEmails(service.orm, step.email)).toHaveLength(1);
  });

  it('fails the attempt on a ledger read the database refuses for another reason, before any e-mail', async () => {
    const step = await inviteStep('ledger-refuses', (real) => ({
      wasSent: () => Promise.reject(Object.assign(new Error('permission denied for table provisioning_invites'), { code: '42501' })),
      recordSent: (...args) => real.recordSent(...args),
    }));
    await expect(step.send()).rejects.toThrow(/permission denied/);
    expect(await capturedEmails(service.orm, step.email)).toHaveLength(0);
  });
});

describe('the runProviderSteps activity', () => {
  /** A tenant with an administrator to provision, and the activity run as the worker runs it. */
  async function providerSteps(name: string) {
    const slug = uniqueSlug(name);
    const tenantId: string = (await service.request('POST', '/v1/tenants', { slug, name })).body.tenant.id;
    const activities = createTenantActorActivities({ stores: postgresStores(service.deps.orm, testSecretBox()), idp: new SimulatedIdentityProvider(service.deps.orm, service.baseUrl) });
    const email = `admin@${slug}.example`;
    const request = { tenantId, slug, organizationName: `${name} (${slug})`, adminEmail: email, runKey: `${randomUUID()}:1:provision` };
    const run = (done: ProviderStepsDone = {}) => new MockActivityEnvironment().run(activities.runProviderSteps, request, done) as ReturnType<typeof activities.runProviderSteps>;
    return { slug, email, run };
  }

  /** How far a failed attempt got, from the failure it threw. */
  const stopped = async (attempt: Promise<ProviderStepsDone>) => {
    const failure = await attempt.then(() => undefined, (error: unknown) => error);
    expect(failure).toBeInstanceOf(ApplicationFailure);
    return failure as ApplicationFailure & { details: [ProviderStepsStopped] };
  };

  it("runs organization, user, membership (with the administrator's invitation), invite and claims, and answers what each produced", async () => {
    const steps = await providerSteps('all-steps');
    expect(await steps.run()).toEqual({
      organizationId: expect.any(String),
      userId: expect.any(String),
      member: true,
      invitation: { invitationId: expect.any(String), nonce: expect.any(String) },
      invited: { inviteUrl: expect.stringMatching(/action-token\?key=/) },
      memberSync: expect.any(Number),
    });
    expect(await capturedEmails(service.orm, steps.email)).toHaveLength(1);
  });

  it('fails an attempt typed by its kind, naming its step, with the steps done before it in the details', async () => {
    const steps = await providerSteps('fails-at-user');
    await injectFault(service.orm, { kind: 'unavailable', step: 'user', tenantSlug: steps.slug, times: 1 });
    const failure = await stopped(steps.run());
    expect(failure).toMatchObject({ type: 'unavailable', nonRetryable: true, message: expect.stringMatching(/^user step: /) });
    expect(failure.details[0]).toEqual({ step: 'user', message: expect.any(String), done: { organizationId: expect.any(String) } });
  });

  it('does not run again a step its input says is done: a resumed attempt starts at the step that failed', async () => {
    const steps = await providerSteps('resumes');
    await injectFault(service.orm, { kind: 'unavailable', step: 'membership', tenantSlug: steps.slug, times: 1 });
    const [first] = (await stopped(steps.run())).details;
    expect(first.step).toBe('membership');
    // The organization step would fail now: the resumed attempt must not reach it.
    await injectFault(service.orm, { kind: 'unauthorized', step: 'organization', tenantSlug: steps.slug });
    const resumed = await steps.run(first.done);
    expect(resumed).toMatchObject({ organizationId: first.done.organizationId, userId: first.done.userId, member: true });
    await clearFaults(service.orm, { tenantSlug: steps.slug });
  });

  it('reports a claims push that failed after the invite as the invite step, keeping the link, and does not mail again on resume', async () => {
    const steps = await providerSteps('claims-fail');
    await injectFault(service.orm, { kind: 'unavailable', step: 'push_claims', tenantSlug: steps.slug, times: 1 });
    const failure = await stopped(steps.run());
    expect(failure.type).toBe('unavailable');
    const [first] = failure.details;
    expect(first.step).toBe('invite');
    expect(first.done.invited?.inviteUrl).toMatch(/action-token\?key=/);
    expect(await steps.run(first.done)).toEqual(first.done);
    expect(await capturedEmails(service.orm, steps.email)).toHaveLength(1);
  });

  it("leaves the relay no sync of the administrator member once the claims push synced it, and keeps it while the push has not", async () => {
    const steps = await providerSteps('member-sync-done');
    const memberSyncs = () =>
      service.orm.em.fork().execute<{ delivered: boolean }[]>(
        "select delivered_at is not null as delivered from tenant_actor_outbox where tenant_id = (select id from tenants where slug = ?) and command = 'syncMember'",
        [steps.slug],
      );
    await injectFault(service.orm, { kind: 'unavailable', step: 'push_claims', tenantSlug: steps.slug, times: 1 });
    const [first] = (await stopped(steps.run())).details;
    expect(first.done.memberSync).toEqual(expect.any(Number));
    expect(await memberSyncs()).toEqual([{ delivered: false }]);
    await steps.run(first.done);
    expect(await memberSyncs()).toEqual([{ delivered: true }]);
  });
});

/** The user's pushed values of tenant_memberships, by tenant slug. */
async function pushedOf(userId: string): Promise<Record<string, PushedMembership>> {
  const [row] = await service.orm.em.fork().execute<{ attributes: Record<string, string[]> }[]>('select attributes from idp_sim_users where id = ?', [userId]);
  return Object.fromEntries((row?.attributes[TENANT_MEMBERSHIPS_ATTRIBUTE] ?? []).map((value) => [(JSON.parse(value) as PushedMembership).tenant_slug, JSON.parse(value) as PushedMembership]));
}

describe("provisioning's administrator as a member", () => {
  it('is recorded as a pending IT_ADMIN member before the claims push, which grants it nothing until it accepts', async () => {
    const slug = uniqueSlug('admin-member');
    const tenantId: string = (await service.request('POST', '/v1/tenants', { slug, name: 'Admin member' })).body.tenant.id;
    const stores = postgresStores(service.deps.orm, testSecretBox());
    const activities = createTenantActorActivities({ stores, idp: new SimulatedIdentityProvider(service.deps.orm, service.baseUrl) });
    const request = { tenantId, slug, organizationName: `Admin member (${slug})`, adminEmail: `admin@${slug}.example`, adminName: 'Ada Admin', runKey: `${randomUUID()}:1:provision` };
    const { userId } = (await new MockActivityEnvironment().run(activities.runProviderSteps, request, {})) as ProviderStepsDone;

    expect(await stores.members.find(tenantId, userId!)).toMatchObject({ roles: ['IT_ADMIN'], status: 'pending', source: 'provisioning', email: request.adminEmail });
    expect((await pushedOf(userId!))[slug]).toMatchObject({ org_roles: [], permissions: [], membership_status: 'pending' });
  });
});

describe('the pushTenantClaims activity', () => {
  it('pushes each member its own roles, an inactive member none, a user of the organization that is no member status none, and skips a member the provider lost', async () => {
    const slug = uniqueSlug('tenant-push');
    const tenantId: string = (await service.request('POST', '/v1/tenants', { slug, name: 'Tenant push' })).body.tenant.id;
    const idp = new SimulatedIdentityProvider(service.deps.orm, service.baseUrl);
    const activities = createTenantActorActivities({ stores: postgresStores(service.deps.orm, testSecretBox()), idp });
    const { organizationId } = await idp.ensureOrganization({ tenantId, slug, name: `Tenant push (${slug})` });
    const user = async (name: string) => (await seedForeignUser(service.orm, { email: `${name}@${slug}.example` })).userId;
    const [active, inactive, outsider] = [await user('active'), await user('inactive'), await user('outsider')];
    await insertMember(service.orm, { tenantId, userId: active, status: 'active', roles: ['IT_ADMIN'] });
    await insertMember(service.orm, { tenantId, userId: inactive, status: 'inactive', roles: ['IT_ADMIN'] });
    await insertMember(service.orm, { tenantId, userId: randomUUID(), status: 'active', roles: ['MEMBER'] });
    await idp.ensureMembership(organizationId, active);
    await idp.ensureMembership(organizationId, outsider);

    const pushed = (await new MockActivityEnvironment().run(activities.pushTenantClaims, tenantId)) as { users: number };
    expect(pushed).toEqual({ users: 3 });
    expect((await pushedOf(active))[slug]).toMatchObject({ tenant_id: tenantId, org_roles: ['IT_ADMIN'], permissions: expect.arrayContaining(['members:manage']), membership_status: 'active' });
    expect((await pushedOf(inactive))[slug]).toMatchObject({ org_roles: [], permissions: [], membership_status: 'inactive' });
    expect((await pushedOf(outsider))[slug]).toMatchObject({ org_roles: [], permissions: [], membership_status: 'none' });
  });
});

describe('the syncMember activity', () => {
  it("fails typed by the provider's failure kind, retryable only when the provider is unavailable", async () => {
    const slug = uniqueSlug('sync-kind');
    const tenantId: string = (await service.request('POST', '/v1/tenants', { slug, name: 'Sync kind' })).body.tenant.id;
    const activities = createTenantActorActivities({ stores: postgresStores(service.deps.orm, testSecretBox()), idp: new SimulatedIdentityProvider(service.deps.orm, service.baseUrl) });
    const userId = (await seedForeignUser(service.orm, { email: `member@${slug}.example` })).userId;
    await insertMember(service.orm, { tenantId, userId, status: 'active', roles: ['MEMBER'] });
    const sync = () => new MockActivityEnvironment().run(activities.syncMember, tenantId, userId).then(() => undefined, (error: unknown) => error);

    await injectFault(service.orm, { kind: 'unauthorized', step: 'push_claims', tenantSlug: slug, times: 1 });
    expect(await sync()).toMatchObject({ type: 'unauthorized', nonRetryable: true });
    await injectFault(service.orm, { kind: 'unavailable', step: 'membership', tenantSlug: slug, times: 1 });
    expect(await sync()).toMatchObject({ type: 'unavailable', nonRetryable: false });
    expect(await sync()).toBeUndefined();
    expect((await pushedOf(userId))[slug]).toMatchObject({ org_roles: ['MEMBER'], membership_status: 'active' });
  });
});

describe('the runInvitationStepsRecorded activity', () => {
  async function invited(name: string) {
    const slug = uniqueSlug(name);
    const tenantId: string = (await service.request('POST', '/v1/tenants', { slug, name })).body.tenant.id;
    const email = `member@${slug}.example`;
    const created = await service.request('POST', `/v1/tenants/${tenantId}/invitations`, { email });
    expect(created.status).toBe(201);
    return { tenantId, email, invitation: created.body as { id: string; expires_at: string } };
  }
  const sentEvents = async (tenantId: string) =>
    (await service.request('GET', `/v1/audit?tenant_id=${tenantId}&action=idp.invitation_sent`)).body.items as { metadata: Record<string, unknown> }[];

  it("sends once and appends idp.invitation_sent keyed by the send, answering the invitation's expiry; a re-run appends and mails nothing more", async () => {
    const { tenantId, email, invitation } = await invited('inv-recorded');
    const stores = postgresStores(service.deps.orm, testSecretBox());
    const activities = createTenantActorActivities({ stores, idp: new SimulatedIdentityProvider(service.deps.orm, service.baseUrl) });
    const run = () => new MockActivityEnvironment().run(activities.runInvitationStepsRecorded, tenantId, invitation.id) as ReturnType<typeof activities.runInvitationStepsRecorded>;

    const first = await run();
    expect(first).toMatchObject({ done: { status: 'sent', sendCount: 1 }, recorded: true, expiresAt: Date.parse(invitation.expires_at) });
    const again = await run();
    expect(again).toMatchObject({ done: { status: 'sent', sendCount: 1 }, recorded: true });
    const events = await sentEvents(tenantId);
    expect(events).toHaveLength(1);
    expect(events[0]!.metadata).toMatchObject({ outcome_id: `invitation:${invitation.id}:sent:1`, send_count: 1, user_id: expect.any(String) });
    expect(await capturedEmails(service.orm, email)).toHaveLength(1);
  });

  it('leaves the event to the actor (recorded: false) when its append fails after the e-mail, answering the send as sent', async () => {
    const { tenantId, email, invitation } = await invited('inv-unrecorded');
    const stores = postgresStores(service.deps.orm, testSecretBox());
    const audit = Object.create(stores.audit) as typeof stores.audit;
    audit.appendOutcomeOnce = () => Promise.reject(new Error('connection terminated'));
    const activities = createTenantActorActivities({ stores: { ...stores, audit }, idp: new SimulatedIdentityProvider(service.deps.orm, service.baseUrl) });

    const answer = await new MockActivityEnvironment().run(activities.runInvitationStepsRecorded, tenantId, invitation.id);
    expect(answer).toMatchObject({ done: { status: 'sent', sendCount: 1 }, recorded: false, expiresAt: Date.parse(invitation.expires_at) });
    expect(await capturedEmails(service.orm, email)).toHaveLength(1);
    expect(await sentEvents(tenantId)).toEqual([]);
  });
});
