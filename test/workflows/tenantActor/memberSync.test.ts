import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TENANT_MEMBERSHIPS_ATTRIBUTE, type PushedMembership } from '../../../identityProvider/identityProvider.ts';
import { clearFaults, injectFault, seedForeignUser } from '../../../store/simulatorControl.ts';
import { actorStateQuery, tenantActorWorkflowId, type TenantActorState } from '../../../workflows/tenantActor/tenantActorMessages.ts';
import { startActorStack, type ActorStack } from '../../support/actorStack.ts';
import { eventually } from '../../support/eventually.ts';
import { insertMember, setMemberStatus } from '../../support/memberRows.ts';
import { uniqueSlug } from '../../support/testService.ts';
import { PUSHED_SIGN_IN_DEFAULTS } from '../../support/pushedSignInDefaults.ts';

/**
 * Member changes as durable steps of the tenant's actor (SPEC-EXTENSIONS §7): real Temporal, real PostgreSQL and the
 * simulated identity provider with injected faults. Members are written straight into the tables, as the members
 * API stores them; the test hands the actor the `syncMember` the API's change would.
 */
let stack: ActorStack;
beforeAll(async () => {
  stack = await startActorStack();
});
afterAll(() => stack.close());

const RETRY = { initialIntervalMs: 100, backoffCoefficient: 2, maximumIntervalMs: 400, maximumAttempts: 3 };
const IT_ADMIN_PERMISSIONS = ['audit:read', 'directory:manage', 'members:manage', 'sso:manage'];

/**
 * A tenant without an administrator to provision: its organization comes with its first member's sync. Answered once
 * its actor has pushed its claims for the creation, so that push cannot write a member's value in a test's stead.
 */
async function createTenant() {
  const slug = uniqueSlug('sync');
  const res = await stack.service.request('POST', '/v1/tenants', { slug, name: `Sync ${slug}` });
  expect(res.status).toBe(201);
  const tenantId = res.body.tenant.id as string;
  await eventually(async () => (await completedActivities(tenantId)).includes('pushTenantClaims'), 20_000, "the creation's claims push");
  return { slug, tenantId, plan: res.body.tenant.plan as string, status: res.body.tenant.status as string };
}

/** A user of the identity provider that belongs to no tenant yet. */
const newUser = async () => (await seedForeignUser(stack.service.orm, { email: `${uniqueSlug('user')}@example.com` })).userId;

const syncMember = (tenantId: string, userId: string) => stack.dispatcher.deliver(tenantId, { kind: 'syncMember', user_id: userId });
const removeMember = (tenantId: string, userId: string) =>
  stack.service.orm.em.fork().execute('delete from members where tenant_id = ? and user_id = ?', [tenantId, userId]);

const attributesOf = async (userId: string) =>
  ((await stack.service.orm.em.fork().execute('select attributes from idp_sim_users where id = ?', [userId]))[0] as { attributes: Record<string, string[]> }).attributes;
/** The user's pushed values of tenant_memberships, by tenant slug. */
const pushedOf = async (userId: string): Promise<Record<string, PushedMembership>> =>
  Object.fromEntries(
    ((await attributesOf(userId))[TENANT_MEMBERSHIPS_ATTRIBUTE] ?? []).map((value) => {
      const membership = JSON.parse(value) as PushedMembership;
      return [membership.tenant_slug, membership];
    }),
  );
const inOrganization = async (tenantId: string, userId: string) => (await stack.idp.listTenantUserIds(tenantId)).includes(userId);
const handleOf = (tenantId: string) => stack.dispatcher.client.workflow.getHandle(tenantActorWorkflowId(tenantId));
const stateOf = (tenantId: string): Promise<TenantActorState> => handleOf(tenantId).query(actorStateQuery);
const failuresOf = async (tenantId: string) =>
  (await stack.service.request('GET', `/v1/audit?tenant_id=${tenantId}&action=idp.member_sync_failed`)).body.items as Array<{
    actor_type: string;
    target_id: string;
    metadata: Record<string, unknown>;
  }>;

describe("a member's sync", () => {
  it("adds the member to the tenant's organization and pushes its roles, permissions and status into its attributes", async () => {
    const tenant = await createTenant();
    const userId = await newUser();
    await insertMember(stack.service.orm, { tenantId: tenant.tenantId, userId, status: 'active', roles: ['IT_ADMIN'] });
    await syncMember(tenant.tenantId, userId);

    const pushed = await synced(tenant, userId, 'active');
    expect(pushed).toEqual({
      tenant_id: tenant.tenantId,
      tenant_slug: tenant.slug,
      plan: tenant.plan,
      tenant_status: tenant.status,
      products: [],
      org_roles: ['IT_ADMIN'],
      permissions: IT_ADMIN_PERMISSIONS,
      membership_status: 'active',
      ...PUSHED_SIGN_IN_DEFAULTS,
    });
    // Its first tenant is its home tenant: the top-level attributes older mappers read are this tenant's.
    expect(await attributesOf(userId)).toMatchObject({ tenant_id: [tenant.tenantId], tenant_slug: [tenant.slug], org_roles: ['IT_ADMIN'] });
  });

  it('of a deactivated member takes it out of the organization and pushes it inactive, without roles or permissions', async () => {
    const tenant = await createTenant();
    const userId = await newUser();
    await insertMember(stack.service.orm, { tenantId: tenant.tenantId, userId, status: 'active', roles: ['IT_ADMIN'] });
    await syncMember(tenant.tenantId, userId);
    await synced(tenant, userId, 'active');

    await setMemberStatus(stack.service.orm, tenant.tenantId, userId, 'inactive');
    await syncMember(tenant.tenantId, userId);
    const pushed = await eventually(async () => {
      const value = (await pushedOf(userId))[tenant.slug];
      return value?.membership_status === 'inactive' ? value : undefined;
    }, 20_000, 'the inactive member');
    expect(pushed).toMatchObject({ org_roles: [], permissions: [] });
    expect(await inOrganization(tenant.tenantId, userId)).toBe(false);
    expect((await attributesOf(userId)).org_roles).toBeUndefined();
  });

  it("of a removed member takes it out of the organization and removes the tenant's value and, for its home tenant, the top-level attributes", async () => {
    const tenant = await createTenant();
    const userId = await newUser();
    await insertMember(stack.service.orm, { tenantId: tenant.tenantId, userId, status: 'pending', roles: ['MEMBER'] });
    await syncMember(tenant.tenantId, userId);
    await synced(tenant, userId, 'pending');

    await removeMember(tenant.tenantId, userId);
    await syncMember(tenant.tenantId, userId);
    await eventually(async () => Object.keys(await attributesOf(userId)).length === 0, 20_000, 'the attributes gone');
    expect(await inOrganization(tenant.tenantId, userId)).toBe(false);
  });

  it('is retried while the provider is unavailable, shown in the state and audited once, and lands once the provider answers', async () => {
    const tenant = await createTenant();
    const userId = await newUser();
    await insertMember(stack.service.orm, { tenantId: tenant.tenantId, userId, status: 'active', roles: ['MEMBER'] });
    await injectFault(stack.service.orm, { kind: 'unavailable', step: 'membership', tenantSlug: tenant.slug });
    await syncMember(tenant.tenantId, userId);

    const failure = await eventually(async () => (await stateOf(tenant.tenantId)).memberSync?.[userId], 20_000, 'the failure in the state');
    expect(failure).toMatchObject({ kind: 'unavailable', attempts: 1, retryAt: expect.any(String) });
    // The actor keeps the failure in its state before the audit append's local activity ends; a query can land between.
    const [event, ...more] = await eventually(async () => {
      const failures = await failuresOf(tenant.tenantId);
      return failures.length > 0 ? failures : undefined;
    }, 10_000, 'the failure audited');
    expect(more).toEqual([]);
    expect(event).toMatchObject({ actor_type: 'system', target_id: userId, metadata: { user_id: userId, kind: 'unavailable', message: expect.stringContaining('503') } });

    await clearFaults(stack.service.orm, { tenantSlug: tenant.slug });
    await eventually(async () => (await stateOf(tenant.tenantId)).memberSync === undefined, 30_000, 'the sync through on the timer');
    expect(await inOrganization(tenant.tenantId, userId)).toBe(true);
    expect((await pushedOf(userId))[tenant.slug]).toMatchObject({ org_roles: ['MEMBER'], membership_status: 'active' });
    expect(await failuresOf(tenant.tenantId)).toHaveLength(1);
  });

  it("failing for a kind that needs an operator waits in the state, audited once, until the operator's retryProvisioning runs it again", async () => {
    const tenant = await createTenant();
    const userId = await newUser();
    await insertMember(stack.service.orm, { tenantId: tenant.tenantId, userId, status: 'active', roles: ['IT_ADMIN'] });
    await injectFault(stack.service.orm, { kind: 'unauthorized', step: 'membership', tenantSlug: tenant.slug, times: 1 });
    await syncMember(tenant.tenantId, userId);

    const failure = await eventually(async () => (await stateOf(tenant.tenantId)).memberSync?.[userId], 20_000, 'the failure in the state');
    expect(failure).toEqual({ kind: 'unauthorized', attempts: 1, message: expect.stringContaining('401') });
    const events = await eventually(async () => {
      const failures = await failuresOf(tenant.tenantId);
      return failures.length > 0 ? failures : undefined;
    }, 10_000, 'the failure audited');
    expect(events).toEqual([expect.objectContaining({ metadata: expect.objectContaining({ user_id: userId, kind: 'unauthorized' }) })]);
    // No timer retries it: only an operator can tell the cause is gone.
    await new Promise((resolve) => setTimeout(resolve, 6_000));
    expect((await stateOf(tenant.tenantId)).memberSync?.[userId]).toEqual(failure);
    expect(await inOrganization(tenant.tenantId, userId)).toBe(false);

    const retried = await stack.service.request('POST', `/v1/tenants/${tenant.tenantId}/idp/retry-provisioning`, { requested_by: 'ops@example.com' });
    expect(retried.status).toBe(202);
    await eventually(async () => (await stateOf(tenant.tenantId)).memberSync === undefined, 20_000, 'the sync through');
    expect(await inOrganization(tenant.tenantId, userId)).toBe(true);
    expect((await pushedOf(userId))[tenant.slug]).toMatchObject({ org_roles: ['IT_ADMIN'], permissions: IT_ADMIN_PERMISSIONS });
    expect(await failuresOf(tenant.tenantId)).toHaveLength(1);
  });

  it('handed off several times converges: the queued syncs collapse into one and the member is in the organization once', async () => {
    const tenant = await createTenant();
    const userId = await newUser();
    await insertMember(stack.service.orm, { tenantId: tenant.tenantId, userId, status: 'active', roles: ['MEMBER'] });
    // The hand-offs wait in the actor's queue while no worker runs, as a burst of changes to one member would.
    await stack.stopWorker();
    try {
      for (let i = 0; i < 3; i++) await syncMember(tenant.tenantId, userId);
    } finally {
      await stack.startWorker();
    }
    await synced(tenant, userId, 'active');
    // Uncollapsed, the other two would have followed within milliseconds.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(await syncActivities(tenant.tenantId)).toBe(1);

    expect((await stack.idp.listTenantUserIds(tenant.tenantId)).filter((id) => id === userId)).toHaveLength(1);
    expect((await attributesOf(userId))[TENANT_MEMBERSHIPS_ATTRIBUTE]).toHaveLength(1);
  });

  it("of a user in several tenants keeps one value per tenant, each with that tenant's roles (none while pending), and the top-level attributes its home tenant's", async () => {
    const [home, second, third] = [await createTenant(), await createTenant(), await createTenant()];
    const userId = await newUser();
    await insertMember(stack.service.orm, { tenantId: home.tenantId, userId, status: 'active', roles: ['MEMBER'] });
    await insertMember(stack.service.orm, { tenantId: second.tenantId, userId, status: 'active', roles: ['IT_ADMIN'] });
    await insertMember(stack.service.orm, { tenantId: third.tenantId, userId, status: 'pending', roles: ['IT_ADMIN', 'MEMBER'] });
    await syncMember(home.tenantId, userId);
    await synced(home, userId, 'active');
    await Promise.all([syncMember(second.tenantId, userId), syncMember(third.tenantId, userId)]);
    const pushed = await eventually(async () => {
      const values = await pushedOf(userId);
      return Object.keys(values).length === 3 ? values : undefined;
    }, 20_000, 'three values');
    expect(pushed[home.slug]).toMatchObject({ tenant_id: home.tenantId, org_roles: ['MEMBER'], permissions: [], membership_status: 'active' });
    expect(pushed[second.slug]).toMatchObject({ tenant_id: second.tenantId, org_roles: ['IT_ADMIN'], permissions: IT_ADMIN_PERMISSIONS, membership_status: 'active' });
    // Pending (not yet accepted): the fallback grants nothing either.
    expect(pushed[third.slug]).toMatchObject({ tenant_id: third.tenantId, org_roles: [], permissions: [], membership_status: 'pending' });

    // Another tenant's claims push changes that tenant's value only.
    expect((await stack.service.request('POST', `/v1/tenants/${second.tenantId}/activate`, { plan: 'growth' })).status).toBe(200);
    await eventually(async () => (await pushedOf(userId))[second.slug]?.plan === 'growth', 20_000, "the second tenant's push");
    expect(await attributesOf(userId)).toMatchObject({
      tenant_id: [home.tenantId],
      tenant_slug: [home.slug],
      plan: [home.plan],
      tenant_status: [home.status],
      org_roles: ['MEMBER'],
    });
    expect((await pushedOf(userId))[home.slug]).toEqual(pushed[home.slug]);
  });
});

describe("a member's sync across continue-as-new", () => {
  it('keeps a failed sync in the next run, where the operator retries it, and handles the syncs a run hands on', async () => {
    const tenant = await createTenant();
    const failing = await newUser();
    const carried = await newUser();
    await insertMember(stack.service.orm, { tenantId: tenant.tenantId, userId: failing, status: 'active', roles: ['MEMBER'] });
    await insertMember(stack.service.orm, { tenantId: tenant.tenantId, userId: carried, status: 'active', roles: ['MEMBER'] });
    const handle = handleOf(tenant.tenantId);
    await handle.terminate('test: restart with a budget of one command and a sync handed on');
    const started = await stack.dispatcher.client.workflow.start('tenantActorWorkflow', {
      workflowId: handle.workflowId,
      taskQueue: stack.taskQueue,
      args: [{ tenantId: tenant.tenantId, retry: RETRY, state: { provisioning: 'idle', runs: 0 }, pending: [{ kind: 'syncMember', user_id: carried }], maxCommandsPerRun: 1 }],
    });
    await synced(tenant, carried, 'active');
    // The carried sync was the first run's one command: the second run waits for the next.
    const afterCarried = await eventually(async () => {
      const { runId } = await handle.describe();
      return runId !== started.firstExecutionRunId ? runId : undefined;
    }, 20_000, 'the second run');

    await injectFault(stack.service.orm, { kind: 'unauthorized', step: 'membership', tenantSlug: tenant.slug, times: 1 });
    await syncMember(tenant.tenantId, failing);
    // One command a run: the failing sync ends its run, and the next run holds the failure.
    const next = await eventually(async () => {
      const described = await handle.describe();
      return described.runId !== afterCarried && (await stateOf(tenant.tenantId)).memberSync?.[failing] ? described : undefined;
    }, 20_000, 'the failure carried into a new run');
    expect((await stateOf(tenant.tenantId)).memberSync).toEqual({ [failing]: expect.objectContaining({ kind: 'unauthorized', attempts: 1 }) });
    expect(next.runId).not.toBe(afterCarried);

    await stack.service.request('POST', `/v1/tenants/${tenant.tenantId}/idp/retry-provisioning`);
    await eventually(async () => (await stateOf(tenant.tenantId)).memberSync === undefined, 20_000, 'the retried sync');
    expect(await inOrganization(tenant.tenantId, failing)).toBe(true);
  });
});

/** How many syncMember activities the current run of the tenant's actor has scheduled. */
async function syncActivities(tenantId: string): Promise<number> {
  const history = await handleOf(tenantId).fetchHistory();
  return (history.events ?? []).filter((event) => event.activityTaskScheduledEventAttributes?.activityType?.name === 'syncMember').length;
}

/** The activities the current run of the tenant's actor has completed, by name. */
async function completedActivities(tenantId: string): Promise<string[]> {
  const events = (await handleOf(tenantId).fetchHistory()).events ?? [];
  const names = new Map(events.map((event) => [String(event.eventId), event.activityTaskScheduledEventAttributes?.activityType?.name]));
  return events.flatMap((event) => {
    const completed = event.activityTaskCompletedEventAttributes;
    return completed ? [names.get(String(completed.scheduledEventId)) ?? ''] : [];
  });
}

/** The member in the tenant's organization with its value pushed, as a sync leaves it. */
const synced = (tenant: { tenantId: string; slug: string }, userId: string, status: PushedMembership['membership_status']) =>
  eventually(async () => {
    const value = (await pushedOf(userId))[tenant.slug];
    return value?.membership_status === status && (await inOrganization(tenant.tenantId, userId)) ? value : undefined;
  }, 30_000, `the ${status} member synced`);
