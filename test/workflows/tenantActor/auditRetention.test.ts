import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { createTenantActorActivities } from '../../../activities/tenantActor/tenantActorActivities.ts';
import { createTenant } from '../../../domain/tenants/createTenant.ts';
import { updateTenant } from '../../../domain/tenants/updateTenant.ts';
import { SimulatedIdentityProvider } from '../../../identityProvider/simulatedIdentityProvider.ts';
import { temporalTestServerPath } from '../../../platform/temporalTestServer.ts';
import { openOrm, type Orm } from '../../../store/orm.ts';
import { postgresStores } from '../../../store/postgresStores.ts';
import { testSecretBox } from '../../support/testSecretBox.ts';
import type { RegistryContext } from '../../../domain/registryContext.ts';
import { actorStateQuery, tenantActorWorkflowId } from '../../../workflows/tenantActor/tenantActorMessages.ts';
import { eventually } from '../../support/eventually.ts';
import { uniqueSlug } from '../../support/testService.ts';
import { RecordingChangeEffects } from '../../support/fakes/recordingChangeEffects.ts';
import { tenantLimitsOf } from '../../../api/tenantLimitsOf.ts';
import { loadSettings } from '../../../platform/config.ts';
import { parseKeepingNumbers, type ReceivedCloudEvent } from '../../../domain/events/chainHash.ts';
import { verifyEventStream } from '../../../domain/events/verifyEventStream.ts';

/**
 * A tenant's audit retention on Temporal's time-skipping test server: its actor's timer fires when the skipped clock
 * passes the retention of its oldest event, against the run's real PostgreSQL.
 */
const DAY = 24 * 3600_000;
const taskQueue = `retention-${randomUUID()}`;
let env: TestWorkflowEnvironment;
let orm: Orm;
let stores: ReturnType<typeof postgresStores>;
let registry: RegistryContext;
let worker: Worker;
let running: Promise<void>;

beforeAll(async () => {
  env = await TestWorkflowEnvironment.createTimeSkipping({ server: { executable: { type: 'existing-path', path: await temporalTestServerPath() } } });
  orm = await openOrm(inject('databaseUrl'), 5);
  stores = postgresStores(orm, testSecretBox());
  registry = { stores, effects: new RecordingChangeEffects(), tenantLimits: tenantLimitsOf(loadSettings({})) };
  worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue,
    workflowBundle: { codePath: inject('workflowBundlePath') },
    activities: createTenantActorActivities({ stores, idp: new SimulatedIdentityProvider(orm, 'http://127.0.0.1:9'), trialReminderDays: 3 }),
    maxCachedWorkflows: 0,
  });
  running = worker.run();
}, 120_000);
afterAll(async () => {
  worker?.shutdown();
  await running;
  await env?.teardown();
  await orm?.close();
});

const sql = <T>(text: string, values: unknown[] = []) => orm.em.fork().execute<T[]>(text, values);
const actionsOf = async (tenantId: string) =>
  (await sql<{ action: string }>('select action from audit_events where tenant_id = ? order by id', [tenantId])).map((row) => row.action);

async function demoTenant() {
  const { tenant } = await createTenant(registry, { slug: uniqueSlug('keep'), name: 'Retention', kind: 'demo', plan: 'starter' }, {});
  for (let i = 0; i < 3; i += 1) await stores.audit.append({ action: 'retention.sample', tenant_id: tenant.id, metadata: { i } }, {});
  return tenant;
}

describe("a tenant's audit retention", () => {
  it("removes, on its actor's timer, the events past 30 days after a checkpoint; what remains verifies; other tenants keep theirs", async () => {
    const tenant = await demoTenant();
    const other = await demoTenant();
    await updateTenant(registry, tenant.id, { settings: { audit_retention_days: 30 } }, {});
    const before = await actionsOf(tenant.id);
    expect(before).toEqual(['tenant.created', 'retention.sample', 'retention.sample', 'retention.sample', 'tenant.updated']);
    const ids = await sql<{ id: string }>('select id from audit_events where tenant_id = ? order by id', [tenant.id]);
    const otherBefore = await actionsOf(other.id);

    const start = await env.currentTimeMs();
    const handle = await env.client.workflow.start('tenantActorWorkflow', {
      workflowId: tenantActorWorkflowId(tenant.id),
      taskQueue,
      args: [{ tenantId: tenant.id, retry: { initialIntervalMs: 100, backoffCoefficient: 2, maximumIntervalMs: 400, maximumAttempts: 2 } }],
    });
    const upcoming = await eventually(async () => (await handle.query(actorStateQuery)).timeline?.upcoming, 10_000, 'the timeline read');
    expect(upcoming.map((e) => e.kind)).toEqual(['audit_retention']);

    await env.sleep(29 * DAY);
    expect(await actionsOf(tenant.id)).toEqual(before);
    await env.sleep(Math.max(1, start + 32 * DAY - (await env.currentTimeMs())));
    await eventually(async () => (await actionsOf(tenant.id)).join() === 'audit.retention_checkpoint', 10_000, 'the removal');

    const [checkpoint] = await sql<{ id: string; metadata: Record<string, unknown>; actor_type: string }>(
      `select id, metadata, actor_type from audit_events where tenant_id = ? and action = 'audit.retention_checkpoint'`,
      [tenant.id],
    );
    expect(checkpoint!.metadata).toMatchObject({ retention_days: 30, removed_count: 5, first_removed_id: Number(ids[0]!.id), last_removed_id: Number(ids[4]!.id) });
    expect(checkpoint!.actor_type).toBe('system');
    expect(await actionsOf(other.id)).toEqual(otherBefore);
    // The chain still verifies across the removed events: their successors (of any tenant) follow the hashes kept.
    // Retried: another test file may hold an event of the range edited for a moment (its own tamper test).
    const range = `?from_id=${ids[0]!.id}&to_id=${checkpoint!.id}`;
    await eventually(async () => (await stores.audit.integrity(Number(ids[0]!.id), Number(checkpoint!.id))).ok, 10_000, `integrity ${range}`);
    // The other tenant's events, its first one right after a removed event, still verify as the feed carries them.
    const feed = (await stores.audit.chainedEventsAfter({ tenant_id: other.id }, 0, 100)).map((row) => parseKeepingNumbers(row.cloud_event) as ReceivedCloudEvent);
    expect(verifyEventStream(feed, { filtered: true })).toMatchObject({ ok: true, checked: otherBefore.length });
    // Nothing is left to remove but the checkpoint: no further removal is scheduled.
    await eventually(async () => (await handle.query(actorStateQuery)).timeline?.upcoming.length === 0, 10_000, 'nothing scheduled');
  });
});
