import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { Client } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import { createLogger } from '../../platform/logger.ts';
import { retentionWorkflowId } from '../../workflows/retention/retentionMessages.ts';
import { keepRetentionSweepStarted } from '../../worker/retentionSweep.ts';
import { eventually } from '../support/eventually.ts';
import { testPayloadCodec } from '../support/testTemporalAccess.ts';

/** Two workers' starters on the run's Temporal, on a task queue no worker polls: what each start leaves there. */
const taskQueue = `retention-start-${randomUUID()}`;
let connection: NativeConnection;
let client: Client;

beforeAll(async () => {
  connection = await NativeConnection.connect({ address: inject('temporalAddress') });
  client = new Client({ connection, namespace: 'default' });
});
afterAll(async () => {
  await client.workflow.getHandle(retentionWorkflowId(taskQueue)).terminate('test over').catch(() => undefined);
  await connection?.close();
});

const starter = () =>
  keepRetentionSweepStarted({ connection, namespace: 'default', taskQueue, payloadCodec: testPayloadCodec(), log: createLogger('silent', 'test'), timeoutMs: 3_000, checkEveryMs: 200 });
const runOf = async () => {
  const described = await client.workflow.getHandle(retentionWorkflowId(taskQueue)).describe();
  return described.status.name === 'RUNNING' ? described.runId : undefined;
};

describe("the workers' start of the retention sweep", () => {
  it('makes one sweep per task queue whichever workers ask, and starts it again after an operator terminated it', async () => {
    const [first, second] = [starter(), starter()];
    try {
      const run = await eventually(runOf, 20_000, 'the sweep running');
      expect((await client.workflow.getHandle(retentionWorkflowId(taskQueue)).describe()).type).toBe('retentionWorkflow');
      // A worker started later finds it: its start (which stop() waits for) leaves the same run.
      await starter().stop();
      expect(await runOf()).toBe(run);
      await client.workflow.getHandle(retentionWorkflowId(taskQueue)).terminate('an operator');
      const next = await eventually(async () => {
        const current = await runOf();
        return current !== undefined && current !== run ? current : undefined;
      }, 20_000, 'the sweep started again');
      expect(next).not.toBe(run);
    } finally {
      await first.stop();
      await second.stop();
    }
  });
});
