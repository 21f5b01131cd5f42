import { readFile, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
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

/**
 * The history of the current code. Until a release is tagged no running actor has a history the code must keep
 * replaying, so a change of the actor's sequence of commands records this again (RECORD_WORKFLOW_HISTORIES=1 on this
 * file) instead of adding a patch (docs/decisions.md).
 */
const CURRENT_HISTORY = resolve(import.meta.dirname, 'histories/tenantActor.json');
const replayScript = resolve(import.meta.dirname, '../../../scripts/replay-histories.ts');

/** The replay script's answer for `files`: in its own Node process, as the SDK's JSON history decoding does not survive vitest's module transform. */
const replay = (...files: string[]) =>
  promisify(execFile)(process.execPath, [replayScript, ...files]).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => error,
  );

/**
 * Drives one actor through a retried step, failure, operator retry, resend, a claims push and an invitation's send,
 * and writes its history, exported the way an operator would (Temporal's canonical JSON), as CURRENT_HISTORY.
 */
async function recordActorHistory(stack: ActorStack): Promise<void> {
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
  await eventually(async () => (await stack.service.request('GET', `/v1/audit?tenant_id=${tenantId}&action=idp.invite_sent`)).body.items.length === 2);
  // An invitation's send, answered to the request that waits for it.
  const invited = await stack.service.request('POST', `/v1/tenants/${tenantId}/invitations`, { email: `member@${slug}.example` });
  expect(invited.body.invite_url).toMatch(/action-token/);
  await new Promise((r) => setTimeout(r, 500));
  const { stdout } = await promisify(execFile)(
    await temporalCliPath(),
    ['workflow', 'show', '--workflow-id', handle.workflowId, '--address', inject('temporalAddress'), '--output', 'json'],
    { maxBuffer: 64 * 1024 * 1024 },
  );
  await writeFile(CURRENT_HISTORY, await historyFixture(stdout, testPayloadCodec()));
}

describe('tenantActorWorkflow determinism', () => {
  it('replays the committed history of the current code (a retried step, failure, retry, resend, claims push, invitation) without nondeterminism', async () => {
    if (process.env.RECORD_WORKFLOW_HISTORIES) {
      const stack = await startActorStack();
      try {
        await recordActorHistory(stack);
      } finally {
        await stack.close();
      }
    }
    const history = JSON.parse(await readFile(CURRENT_HISTORY, 'utf8')) as { events: unknown[] };
    expect(history.events.length).toBeGreaterThan(20);
    const replayed = await replay(CURRENT_HISTORY);
    expect(replayed.code, replayed.stderr).toBe(0);
    expect(replayed.stdout.trim().split('\n')).toEqual([`replayed ${CURRENT_HISTORY}`]);
  }, 120_000);

  it('reports nondeterminism when a history does not match the workflow code', async () => {
    const history = JSON.parse(await readFile(CURRENT_HISTORY, 'utf8'));
    const scheduled = history.events.find((e: { eventType: string }) => e.eventType === 'EVENT_TYPE_ACTIVITY_TASK_SCHEDULED');
    scheduled.activityTaskScheduledEventAttributes.activityType.name = 'someOtherActivity';
    const tampered = resolve(inject('workflowBundlePath'), '../tampered-history.json');
    await writeFile(tampered, JSON.stringify(history));
    const replayed = await replay(tampered);
    expect(replayed.code).toBe(1);
    expect(replayed.stderr).toMatch(/nondeterminism/i);
  });
});
