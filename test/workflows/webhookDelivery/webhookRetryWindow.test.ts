import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { createWebhookDeliveryActivities } from '../../../activities/webhookDelivery/webhookDeliveryActivities.ts';
import { newWebhookSecret } from '../../../domain/webhooks/webhookSecret.ts';
import { temporalTestServerPath } from '../../../platform/temporalTestServer.ts';
import { openOrm, type Orm } from '../../../store/orm.ts';
import { postgresStores } from '../../../store/postgresStores.ts';
import { webhookDeliveryWorkflowId } from '../../../workflows/webhookDelivery/webhookDeliveryMessages.ts';
import { eventually } from '../../support/eventually.ts';
import { testSecretBox } from '../../support/testSecretBox.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../support/webhookReceiver.ts';

/**
 * The retry window on Temporal's time-skipping test server: the backoff's durable timers fire as the skipped clock
 * reaches them, against the run's real PostgreSQL and a receiver on loopback that refuses every delivery.
 */
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const taskQueue = `webhook-window-${randomUUID()}`;
let env: TestWorkflowEnvironment;
let orm: Orm;
let stores: ReturnType<typeof postgresStores>;
let worker: Worker;
let running: Promise<void>;
let hooks: WebhookReceiver;

beforeAll(async () => {
  env = await TestWorkflowEnvironment.createTimeSkipping({ server: { executable: { type: 'existing-path', path: await temporalTestServerPath() } } });
  orm = await openOrm(inject('databaseUrl'), 5);
  stores = postgresStores(orm, testSecretBox());
  hooks = await startWebhookReceiver();
  worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue,
    workflowBundle: { codePath: inject('workflowBundlePath') },
    activities: createWebhookDeliveryActivities({
      endpoints: stores.webhookEndpoints,
      audit: stores.audit,
      timeoutMs: 2_000,
      targets: { allowedHosts: ['127.0.0.1'], resolveHost: async () => ['127.0.0.1'] },
      longPollMs: 500,
    }),
    // No sticky queues: a task left on a sticky queue waits for a timeout measured in skipped time (tenantLifecycle.test.ts).
    maxCachedWorkflows: 0,
  });
  running = worker.run();
}, 120_000);
afterAll(async () => {
  worker?.shutdown();
  await running;
  await env?.teardown();
  await hooks?.close();
  await orm?.close();
});

describe('a failing webhook endpoint', () => {
  it('is retried with backoff and failing for 3 days, then disabled with its audit event, and its delivery ends', async () => {
    hooks.refuseNext(1_000_000);
    const id = randomUUID();
    const endpoint = await stores.webhookEndpoints.create(
      { id, url: hooks.url, types: ['report.ready'], tenantId: null, secret: newWebhookSecret() },
      { action: 'webhook_endpoint.created', target_id: id, target_type: 'webhook_endpoint', metadata: { url: hooks.url, types: ['report.ready'] } },
      {},
    );
    // The test server's clock before the first failure: the window counts from that failure, so from no earlier.
    const start = await env.currentTimeMs();
    await stores.audit.append({ action: 'report.ready' }, {});
    const handle = await env.client.workflow.start('webhookDeliveryWorkflow', {
      workflowId: webhookDeliveryWorkflowId(endpoint.id),
      taskQueue,
      args: [{ endpointId: endpoint.id, afterSequence: endpoint.lastDeliveredSequence, replayGeneration: endpoint.replayGeneration }],
    });
    const stateOf = async () => (await stores.webhookEndpoints.find(endpoint.id))!.state;
    await eventually(async () => (await stateOf()) === 'failing', 20_000, 'the first failure');

    // Skipped time passes in steps; each look notes the server's clock and the endpoint's state. The clock may run
    // past a step while activities run, so each look is judged by the clock it saw, not by the steps taken.
    const looks: { elapsed: number; state: string }[] = [];
    while (!looks.some((look) => look.state === 'disabled') && (looks.at(-1)?.elapsed ?? 0) < 5 * DAY) {
      await env.sleep(6 * HOUR);
      const state = await stateOf();
      looks.push({ elapsed: (await env.currentTimeMs()) - start, state });
    }
    const disabledAt = looks.find((look) => look.state === 'disabled');
    expect(disabledAt, JSON.stringify(looks)).toBeDefined();
    expect(disabledAt!.elapsed).toBeGreaterThanOrEqual(3 * DAY);
    expect(looks.filter((look) => look.elapsed < 3 * DAY).every((look) => look.state === 'failing'), JSON.stringify(looks)).toBe(true);
    expect(looks.some((look) => look.elapsed < 3 * DAY)).toBe(true);
    expect(hooks.refused).toBeGreaterThanOrEqual(3);
    const [disabled] = await orm.em.fork().execute<{ metadata: { reason: string; failing_since: string } }[]>(
      `select metadata from audit_events where target_id = ? and action = 'webhook_endpoint.disabled'`,
      [endpoint.id],
    );
    expect(disabled!.metadata.reason).toMatch(/answered 503/);
    await eventually(async () => (await handle.describe()).status.name === 'COMPLETED', 20_000, 'the delivery to end');
    expect(hooks.deliveries).toHaveLength(0);
  }, 180_000);
});
