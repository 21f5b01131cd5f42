import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { createRetentionActivities } from '../../../activities/retention/retentionActivities.ts';
import type { RetentionPeriods } from '../../../domain/retention/retainedRows.ts';
import { createWorkerMetrics } from '../../../platform/metrics/workerMetrics.ts';
import { temporalTestServerPath } from '../../../platform/temporalTestServer.ts';
import { migrate, openOrm, type Orm } from '../../../store/orm.ts';
import { PostgresRetainedRows } from '../../../store/postgresRetainedRows.ts';
import { RETENTION_SWEEP_INTERVAL_MS, retentionStateQuery, retentionWorkflowId } from '../../../workflows/retention/retentionMessages.ts';
import { eventually } from '../../support/eventually.ts';
import { RetainedRowSeeds } from '../../support/retainedRowSeeds.ts';
import { createScratchDatabase, type ScratchDatabase } from '../../support/scratchDatabase.ts';

/**
 * The retention sweep on Temporal's time-skipping test server, on a database of this file's own (the sweep's
 * statements reach every tenant's rows, and its clock runs ahead of the other files'): rows are placed around the
 * server's clock, and hours pass on it.
 */
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
// A portal link's setting below its floor: the 8 hours a session it opened may live hold instead.
const periods: RetentionPeriods = { portal_links: HOUR, actor_outbox: 2 * HOUR, directory_tokens: HOUR };
const taskQueue = `retention-${randomUUID()}`;
const metrics = createWorkerMetrics({ ready: async () => true, certificates: [] });
let env: TestWorkflowEnvironment;
let scratch: ScratchDatabase;
let orm: Orm;
let seeds: RetainedRowSeeds;
let worker: Worker;
let running: Promise<void>;

async function startWorker() {
  worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue,
    workflowBundle: { codePath: inject('workflowBundlePath') },
    // Two rows a batch, one batch a pass: a backlog of three takes the workflow two passes.
    activities: createRetentionActivities({ rows: new PostgresRetainedRows(orm), periods, metrics, batchSize: 2, batchesPerPass: 1 }),
    // No sticky queue: a task left on a stopped worker's would wait for a timeout in skipped time (tenantLifecycle.test.ts).
    maxCachedWorkflows: 0,
  });
  running = worker.run();
}

async function stopWorker() {
  worker.shutdown();
  await running;
}

beforeAll(async () => {
  scratch = await createScratchDatabase('retention_sweep');
  await migrate(scratch.ownerUrl, scratch.runtimeUrl);
  orm = await openOrm(scratch.runtimeUrl, 2);
  seeds = new RetainedRowSeeds(scratch.ownerUrl);
  env = await TestWorkflowEnvironment.createTimeSkipping({ server: { executable: { type: 'existing-path', path: await temporalTestServerPath() } } });
  await startWorker();
}, 120_000);
afterAll(async () => {
  if (worker) await stopWorker();
  await env?.teardown();
  await seeds?.close();
  await orm?.close();
  await scratch?.drop();
});

const removedCounted = async () =>
  Object.fromEntries((await metrics.registry.getSingleMetric('tenant_registry_retention_removed_rows_total')!.get()).values.map((v) => [v.labels.rows, v.value]));

describe('the retention sweep', () => {
  it('removes what ended past its retention by the sweep\'s clock, keeps what is inside it or still needed, hour after hour, across a worker restart', async () => {
    const t0 = await env.currentTimeMs();
    const [tenant, other] = [await seeds.tenant(), await seeds.tenant()];
    // Past their retention at the first sweep: three delivered hand-offs, an opened link with its session, a token.
    const oldHandOffs = [
      await seeds.handOff(tenant, { createdAt: t0 - 4 * DAY, deliveredAt: t0 - 3 * DAY }),
      await seeds.handOff(tenant, { createdAt: t0 - 4 * DAY, deliveredAt: t0 - 3 * DAY + MINUTE }),
      await seeds.handOff(tenant, { createdAt: t0 - 4 * DAY, deliveredAt: t0 - 3 * DAY + 2 * MINUTE }),
    ];
    const oldLink = await seeds.portalLink(tenant, { usedAt: t0 - 2 * DAY, expiresAt: t0 - 2 * DAY + 15 * MINUTE });
    const oldToken = await seeds.directory(tenant, t0 - 2 * HOUR);
    // Inside their retention at the first sweep and past it at the next, an hour later; another tenant's.
    const recentHandOff = await seeds.handOff(other, { createdAt: t0 - 2 * HOUR, deliveredAt: t0 - 90 * MINUTE });
    const recentLink = await seeds.portalLink(other, { usedAt: t0 - 7.5 * HOUR, expiresAt: t0 - 7.5 * HOUR + 15 * MINUTE });
    const recentToken = await seeds.directory(other, t0 - 30 * MINUTE);
    // Still needed however long they wait: a pending and a dead-lettered hand-off, an unused link, a token in its grace.
    const pending = await seeds.handOff(tenant, { createdAt: t0 - 30 * DAY });
    const deadLettered = await seeds.handOff(tenant, { createdAt: t0 - 30 * DAY, deadLetteredAt: t0 - 29 * DAY });
    const unusedLink = await seeds.portalLink(tenant, { expiresAt: t0 + 30 * DAY });
    const inGrace = await seeds.directory(tenant, t0 + 30 * DAY);
    const rows = {
      links: [oldLink, recentLink, unusedLink],
      handOffs: [...oldHandOffs, recentHandOff, pending, deadLettered],
      directories: [oldToken, recentToken, inGrace],
    };
    const sorted = (ids: string[]) => [...ids].sort();

    const handle = await env.client.workflow.start('retentionWorkflow', { workflowId: retentionWorkflowId(taskQueue), taskQueue });
    const sweeps = (n: number) => eventually(async () => (await handle.query(retentionStateQuery)).sweeps === n, 20_000, `sweep ${n}`);
    await sweeps(1);
    expect(await seeds.left(rows)).toEqual({
      links: sorted([recentLink, unusedLink]),
      sessionsOfLinks: [recentLink],
      handOffs: sorted([recentHandOff, pending, deadLettered]),
      previousTokens: sorted([recentToken, inGrace]),
    });
    expect((await handle.query(retentionStateQuery)).lastRemoved).toEqual({ portal_links: 1, actor_outbox: 3, directory_tokens: 1 });
    expect(await removedCounted()).toEqual({ portal_links: 1, actor_outbox: 3, directory_tokens: 1 });

    // Another worker in its place; an hour on Temporal's clock, and the timer the first one's sweep set fires on it.
    await stopWorker();
    await startWorker();
    await env.sleep(RETENTION_SWEEP_INTERVAL_MS);
    await sweeps(2);
    const stillNeeded = { links: [unusedLink], sessionsOfLinks: [], handOffs: sorted([pending, deadLettered]), previousTokens: [inGrace] };
    expect(await seeds.left(rows)).toEqual(stillNeeded);
    expect((await handle.query(retentionStateQuery)).lastRemoved).toEqual({ portal_links: 1, actor_outbox: 1, directory_tokens: 1 });

    // An hour on, the next sweep finds nothing more, and what is still needed stays.
    await env.sleep(RETENTION_SWEEP_INTERVAL_MS);
    await sweeps(3);
    expect((await handle.query(retentionStateQuery)).lastRemoved).toEqual({ portal_links: 0, actor_outbox: 0, directory_tokens: 0 });
    expect(await seeds.left(rows)).toEqual(stillNeeded);
    expect(await seeds.directoriesLeft(rows.directories)).toBe(3);
    expect(await removedCounted()).toEqual({ portal_links: 2, actor_outbox: 4, directory_tokens: 2 });
  }, 90_000);
});
