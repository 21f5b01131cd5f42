import { readdir, readFile, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { Worker } from '@temporalio/worker';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { temporalCliPath } from '../../../platform/temporalCli.ts';
import { clearFaults, injectFault } from '../../../store/simulatorControl.ts';
import { actorStateQuery, tenantActorWorkflowId } from '../../../workflows/tenantActor/tenantActorMessages.ts';
import { startActorStack, type ActorStack } from '../../support/actorStack.ts';
import { eventually } from '../../support/eventually.ts';
import { uniqueSlug } from '../../support/testService.ts';
import { testPayloadCodec } from '../../support/testTemporalAccess.ts';
import { historyFixture } from '../../support/historyFixture.ts';

const historiesDir = resolve(import.meta.dirname, 'histories');
/** Where RECORD_WORKFLOW_HISTORIES=1 writes the history recorded now; name it after the change before committing. */
const RECORDED_HISTORY = 'tenantActor-recorded.json';
// The histories hold encrypted payloads, so replay reads them with the run's codec as the worker does.
const replayOptions = () => ({ workflowBundle: { codePath: inject('workflowBundlePath') }, dataConverter: { payloadCodecs: [testPayloadCodec()] } });

let stack: ActorStack;
beforeAll(async () => {
  stack = await startActorStack();
});
afterAll(() => stack.close());

/**
 * Drives one actor through a retried step, failure, operator retry, resend, a claims push and an invitation's send:
 * every branch of the workflow.
 */
async function recordActorHistory() {
  const slug = uniqueSlug('replay');
  await injectFault(stack.service.orm, { kind: 'unavailable', step: 'organization', tenantSlug: slug, times: 1 });
  await injectFault(stack.service.orm, { kind: 'unauthorized', step: 'user', tenantSlug: slug });
  const created = await stack.service.request('POST', '/v1/tenants', { slug, name: 'Replay', admin_email: `a@${slug}.example` });
  const tenantId = created.body.tenant.id as string;
  const handle = stack.dispatcher.client.workflow.getHandle(tenantActorWorkflowId(tenantId));
  await eventually(async () => (await handle.query(actorStateQuery)).provisioning === 'failed');
  await clearFaults(stack.service.orm, { tenantSlug: slug });
  await stack.service.request('POST', `/v1/tenants/${tenantId}/idp/retry-provisioning`, { requested_by: 'ops@example.com' });
  await eventually(async () => (await handle.query(actorStateQuery)).provisioning === 'succeeded');
  await stack.service.request('POST', `/v1/tenants/${tenantId}/idp/resend-invite`, { requested_by: 'support@example.com' });
  await stack.service.request('POST', `/v1/tenants/${tenantId}/activate`);
  await eventually(async () => {
    const events = (await stack.service.request('GET', `/v1/audit?tenant_id=${tenantId}&action=idp.invite_sent`)).body.items;
    return events.length === 2;
  });
  // An invitation's send, answered to the request that waits for it.
  const invited = await stack.service.request('POST', `/v1/tenants/${tenantId}/invitations`, { email: `member@${slug}.example` });
  expect(invited.body.invite_url).toMatch(/action-token/);
  await new Promise((r) => setTimeout(r, 500));
  return { workflowId: handle.workflowId, history: await handle.fetchHistory() };
}

describe('tenantActorWorkflow determinism', () => {
  it('replays a history recorded now from a retried step, failure, retry, resend, claims push and invitation without nondeterminism', async () => {
    const { workflowId, history } = await recordActorHistory();
    expect(history.events!.length).toBeGreaterThan(20);
    if (process.env.RECORD_WORKFLOW_HISTORIES) {
      // Exported the way an operator would, in Temporal's canonical JSON, so fixtures can also come from production.
      const { stdout } = await promisify(execFile)(await temporalCliPath(), [
        'workflow', 'show', '--workflow-id', workflowId, '--address', inject('temporalAddress'), '--output', 'json',
      ], { maxBuffer: 64 * 1024 * 1024 });
      await writeFile(resolve(historiesDir, RECORDED_HISTORY), await historyFixture(stdout, testPayloadCodec()));
    }
    await expect(Worker.runReplayHistory(replayOptions(), history, workflowId)).resolves.toBeUndefined();
  });

  it('replays every committed history of released workflow code without nondeterminism', async () => {
    const files = (await readdir(historiesDir)).filter((f) => f.endsWith('.json')).map((f) => resolve(historiesDir, f));
    expect(files.length).toBeGreaterThan(0);
    // In its own Node process: the SDK's JSON history decoding does not survive vitest's module transform.
    const replay = await promisify(execFile)(process.execPath, [resolve(import.meta.dirname, '../../../scripts/replay-histories.ts'), ...files]).catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect('code' in replay ? replay.stderr : '').toBe('');
    expect((replay as { stdout: string }).stdout.trim().split('\n')).toHaveLength(files.length);
  });

  it('reports nondeterminism when a history does not match the workflow code', async () => {
    const history = JSON.parse(await readFile(resolve(historiesDir, 'tenantActor-failure-retry-resend-claims.json'), 'utf8'));
    const scheduled = history.events.find((e: { eventType: string }) => e.eventType === 'EVENT_TYPE_ACTIVITY_TASK_SCHEDULED');
    scheduled.activityTaskScheduledEventAttributes.activityType.name = 'someOtherActivity';
    const tampered = resolve(inject('workflowBundlePath'), '../tampered-history.json');
    await writeFile(tampered, JSON.stringify(history));
    const replay = await promisify(execFile)(process.execPath, [resolve(import.meta.dirname, '../../../scripts/replay-histories.ts'), tampered]).catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect((replay as { code?: number }).code).toBe(1);
    expect((replay as { stderr: string }).stderr).toMatch(/nondeterminism/i);
  });
});
