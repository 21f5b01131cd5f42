import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { createTenantActorActivities } from '../../../activities/tenantActor/tenantActorActivities.ts';
import { putEntitlement } from '../../../domain/entitlements/putEntitlement.ts';
import { changeTenantStatus } from '../../../domain/tenants/changeTenantStatus.ts';
import { createTenant } from '../../../domain/tenants/createTenant.ts';
import { updateTenant } from '../../../domain/tenants/updateTenant.ts';
import { archiveTenant } from '../../../domain/tenants/archiveTenant.ts';
import { SimulatedIdentityProvider } from '../../../identityProvider/simulatedIdentityProvider.ts';
import { clearFaults, injectFault } from '../../../store/simulatorControl.ts';
import { temporalTestServerPath } from '../../../platform/temporalTestServer.ts';
import { openOrm, type Orm } from '../../../store/orm.ts';
import { postgresStores } from '../../../store/postgresStores.ts';
import { testSecretBox } from '../../support/testSecretBox.ts';
import type { RegistryContext } from '../../../domain/registryContext.ts';
import { actorStateQuery, commandSignal, tenantActorWorkflowId } from '../../../workflows/tenantActor/tenantActorMessages.ts';
import { eventually } from '../../support/eventually.ts';
import { uniqueSlug } from '../../support/testService.ts';
import { RecordingChangeEffects } from '../../support/fakes/recordingChangeEffects.ts';
import { tenantLimitsOf } from '../../../api/tenantLimitsOf.ts';
import { loadSettings } from '../../../platform/config.ts';

/**
 * Days of a tenant's life on Temporal's time-skipping test server: the actor's durable timers fire when the
 * skipped clock reaches them, against the run's real PostgreSQL and the simulated identity provider.
 */
const DAY = 24 * 3600_000;
const taskQueue = `lifecycle-${randomUUID()}`;
let env: TestWorkflowEnvironment;
let orm: Orm;
let stores: ReturnType<typeof postgresStores>;
/** The domain services' context: the run's stores; each test hands the actor its claims push itself. */
let registry: RegistryContext;
let worker: Worker;
let running: Promise<void>;

async function startWorker() {
  const idp = new SimulatedIdentityProvider(orm, 'http://127.0.0.1:9');
  worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue,
    workflowBundle: { codePath: inject('workflowBundlePath') },
    activities: createTenantActorActivities({ stores, idp, trialReminderDays: 3 }),
    // No sticky queues: on the time-skipping server a task left on a stopped worker's sticky queue would wait for a
    // timeout measured in skipped time, which does not pass while the task waits, so a restarted worker would never get it.
    maxCachedWorkflows: 0,
  });
  running = worker.run();
}

async function stopWorker() {
  worker.shutdown();
  await running;
}

beforeAll(async () => {
  env = await TestWorkflowEnvironment.createTimeSkipping({ server: { executable: { type: 'existing-path', path: await temporalTestServerPath() } } });
  orm = await openOrm(inject('databaseUrl'), 5);
  stores = postgresStores(orm, testSecretBox());
  registry = { stores, effects: new RecordingChangeEffects(), tenantLimits: tenantLimitsOf(loadSettings({})) };
  await startWorker();
}, 120_000);
afterAll(async () => {
  await stopWorker();
  await env?.teardown();
  await orm?.close();
});

/** A customer tenant in a 14-day trial from the test server's now, and its actor. */
async function trialTenant(extra: { admin_email?: string } = {}) {
  const slug = uniqueSlug('life');
  const { tenant } = await createTenant(registry, { slug, name: 'Life', kind: 'customer', plan: 'starter', ...extra }, {});
  // The tenant's clock and the skipped clock must agree: the trial is set to end 14 days after the server's now.
  const start = await env.currentTimeMs();
  await orm.em.fork().execute('update tenants set trial_ends_at = ? where id = ?', [new Date(start + 14 * DAY), tenant.id]);
  const handle = await env.client.workflow.start('tenantActorWorkflow', {
    workflowId: tenantActorWorkflowId(tenant.id),
    taskQueue,
    args: [{ tenantId: tenant.id, retry: { initialIntervalMs: 100, backoffCoefficient: 2, maximumIntervalMs: 400, maximumAttempts: 2 } }],
  });
  await eventually(async () => (await handle.query(actorStateQuery)).timeline !== undefined, 10_000, 'the timeline read');
  return { tenant, handle, start };
}

const countOf = async (tenantId: string, action: string) =>
  Number((await orm.em.fork().execute<{ n: number }[]>('select count(*)::int as n from audit_events where tenant_id = ? and action = ?', [tenantId, action]))[0]!.n);
const statusOf = async (tenantId: string) => (await stores.tenants.find({ by: 'id', id: tenantId }))!.status;
/** Skips to `days` after `start` and lets the actor act on what fired. */
async function skipTo(start: number, days: number) {
  const now = await env.currentTimeMs();
  await env.sleep(Math.max(1, start + days * DAY - now));
}

describe('the tenant actor runs the trial', () => {
  it('reminds on day 11 and freezes on day 14, not before; the state shows what is next', async () => {
    const { tenant, handle, start } = await trialTenant();
    expect((await handle.query(actorStateQuery)).timeline!.upcoming.map((e) => e.kind)).toEqual(['trial_ending', 'trial_expired']);
    await skipTo(start, 10.9);
    expect(await countOf(tenant.id, 'tenant.trial_ending')).toBe(0);
    await skipTo(start, 11.01);
    await eventually(async () => (await countOf(tenant.id, 'tenant.trial_ending')) === 1, 10_000, 'the reminder');
    const [reminder] = await orm.em.fork().execute<{ metadata: { days_left: number } }[]>(
      `select metadata from audit_events where tenant_id = ? and action = 'tenant.trial_ending'`,
      [tenant.id],
    );
    expect(reminder!.metadata.days_left).toBe(3);
    await skipTo(start, 13.9);
    expect(await statusOf(tenant.id)).toBe('trial');
    await skipTo(start, 14.01);
    await eventually(async () => (await statusOf(tenant.id)) === 'frozen', 10_000, 'the freeze');
    expect(await countOf(tenant.id, 'tenant.trial_expired')).toBe(1);
    expect(await countOf(tenant.id, 'tenant.trial_ending')).toBe(1);
    await eventually(async () => (await handle.query(actorStateQuery)).timeline!.upcoming.length === 0, 10_000, 'nothing left to schedule');
  });

  it('an activation on day 5 cancels the reminder and the expiry', async () => {
    const { tenant, handle, start } = await trialTenant();
    await skipTo(start, 5);
    await changeTenantStatus(registry, tenant.id, { kind: 'activate', body: {} }, {});
    await handle.signal(commandSignal('pushClaims'));
    await eventually(async () => (await handle.query(actorStateQuery)).timeline!.upcoming.length === 0, 10_000, 'timers cancelled');
    await skipTo(start, 20);
    expect(await countOf(tenant.id, 'tenant.trial_ending')).toBe(0);
    expect(await countOf(tenant.id, 'tenant.trial_expired')).toBe(0);
    expect(await statusOf(tenant.id)).toBe('active');
  });

  it('an extension on day 13 moves the reminder and the expiry', async () => {
    const { tenant, handle, start } = await trialTenant();
    await skipTo(start, 13);
    await eventually(async () => (await countOf(tenant.id, 'tenant.trial_ending')) === 1, 10_000, 'the first reminder');
    await updateTenant(registry, tenant.id, { trial_ends_at: new Date(start + 21 * DAY).toISOString() }, {});
    await handle.signal(commandSignal('pushClaims'));
    await eventually(async () => (await handle.query(actorStateQuery)).timeline!.upcoming.some((e) => Date.parse(e.at) === start + 21 * DAY), 10_000, 'rescheduled');
    await skipTo(start, 14.5);
    expect(await statusOf(tenant.id)).toBe('trial');
    await skipTo(start, 18.01);
    await eventually(async () => (await countOf(tenant.id, 'tenant.trial_ending')) === 2, 10_000, 'the reminder for the new date');
    await skipTo(start, 21.01);
    await eventually(async () => (await statusOf(tenant.id)) === 'frozen', 10_000, 'the freeze on the new date');
  });

  it('a worker restarted between scheduling and firing still fires exactly once', async () => {
    const { tenant, start } = await trialTenant();
    await skipTo(start, 1);
    await stopWorker();
    await startWorker();
    await skipTo(start, 14.5);
    await eventually(async () => (await statusOf(tenant.id)) === 'frozen', 30_000, 'the freeze');
    await skipTo(start, 16);
    expect(await countOf(tenant.id, 'tenant.trial_expired')).toBe(1);
    expect(await countOf(tenant.id, 'tenant.trial_ending')).toBe(1);
  }, 90_000);
});

describe('an archived tenant', () => {
  it("its actor finishes its pending work and completes; nothing of the trial fires afterwards", async () => {
    const { tenant, handle, start } = await trialTenant();
    await archiveTenant(registry, tenant.id, { reason: 'closed' }, {});
    await handle.signal(commandSignal('pushClaims'));
    await eventually(async () => (await handle.describe()).status.name === 'COMPLETED', 10_000, 'the actor to complete');
    await skipTo(start, 15);
    expect(await countOf(tenant.id, 'tenant.trial_expired')).toBe(0);
    expect(await statusOf(tenant.id)).toBe('archived');
  });
});

describe('the tenant actor runs entitlements and claims pushes', () => {
  it("an entitlement's expiry is announced and pushed: the product leaves the user's attributes", async () => {
    const email = `admin@${randomUUID().slice(0, 8)}.example`;
    const { tenant, handle, start } = await trialTenant({ admin_email: email });
    await handle.signal(commandSignal('provision'));
    await eventually(async () => (await handle.query(actorStateQuery)).provisioning === 'succeeded', 10_000, 'provisioning');
    await putEntitlement(registry, tenant.id, 'analytics', { expires_at: new Date(start + 2 * DAY).toISOString() }, {});
    await handle.signal(commandSignal('pushClaims'));
    const products = async () =>
      ((await orm.em.fork().execute<{ attributes: Record<string, string[]> }[]>('select attributes from idp_sim_users where email = ?', [email]))[0]!.attributes.products ?? []);
    await eventually(async () => (await products()).includes('analytics'), 10_000, 'the product pushed');
    await skipTo(start, 2.01);
    await eventually(async () => (await countOf(tenant.id, 'entitlement.expired')) === 1, 10_000, 'entitlement.expired');
    await eventually(async () => !(await products()).includes('analytics'), 10_000, 'the product gone from the attributes');
  });

  it('a failing claims push is retried with backoff, shown in the state and audited once as idp.claims_push_failed', async () => {
    const email = `admin@${randomUUID().slice(0, 8)}.example`;
    const { tenant, handle } = await trialTenant({ admin_email: email });
    await handle.signal(commandSignal('provision'));
    await eventually(async () => (await handle.query(actorStateQuery)).provisioning === 'succeeded', 10_000, 'provisioning');
    await injectFault(orm, { kind: 'unauthorized', step: 'push_claims', tenantSlug: tenant.slug, times: 3 });
    await changeTenantStatus(registry, tenant.id, { kind: 'cancel', body: {} }, {});
    await handle.signal(commandSignal('pushClaims'));
    await eventually(async () => (await handle.query(actorStateQuery)).claimsPush?.attempts === 1, 10_000, 'the first failure');
    expect(await countOf(tenant.id, 'idp.claims_push_failed')).toBe(1);
    await env.sleep(6_000);
    await eventually(async () => ((await handle.query(actorStateQuery)).claimsPush?.attempts ?? 0) >= 2, 10_000, 'a retry');
    await clearFaults(orm, { tenantSlug: tenant.slug });
    await env.sleep(60_000);
    await eventually(async () => (await handle.query(actorStateQuery)).claimsPush === undefined, 10_000, 'the push through');
    const status = (await orm.em.fork().execute<{ attributes: Record<string, string[]> }[]>('select attributes from idp_sim_users where email = ?', [email]))[0]!
      .attributes.tenant_status;
    expect(status).toEqual(['frozen']);
    expect(await countOf(tenant.id, 'idp.claims_push_failed')).toBe(1);
  });
});
