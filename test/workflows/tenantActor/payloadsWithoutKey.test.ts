import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { Client, Connection, type WorkflowHandle } from '@temporalio/client';
import proto from '@temporalio/proto';
import { capturedEmails } from '../../../store/simulatorControl.ts';
import { commandSignal, tenantActorWorkflowId } from '../../../workflows/tenantActor/tenantActorMessages.ts';
import { startActorStack, type ActorStack } from '../../support/actorStack.ts';
import { eventually } from '../../support/eventually.ts';
import { uniqueSlug } from '../../support/testService.ts';

const { EventType } = proto.temporal.api.enums.v1;

let stack: ActorStack;
/** Someone who reaches Temporal's frontend but holds no payload key: a client without the codec, plain JSON payloads. */
let intruder: Client;
let intruderConnection: Connection;
const started: WorkflowHandle[] = [];

beforeAll(async () => {
  stack = await startActorStack();
  intruderConnection = await Connection.connect({ address: inject('temporalAddress') });
  intruder = new Client({ connection: intruderConnection, namespace: 'default' });
});
afterAll(async () => {
  // Their workflow tasks fail for ever by design: ended here so the run's Temporal does not keep retrying them.
  for (const handle of started) await handle.terminate('test over').catch(() => undefined);
  await intruderConnection?.close();
  await stack?.close();
});

/** A tenant provisioned the legitimate way: one organization, one IT_ADMIN, one invite e-mail. */
async function provisionedTenant() {
  const slug = uniqueSlug('nokey');
  const email = `admin@${slug}.example`;
  const created = await stack.service.request('POST', '/v1/tenants', { slug, name: `Tenant ${slug}`, admin_email: email });
  expect(created.status).toBe(201);
  expect(created.body.invite_url).toBeTruthy();
  return { tenantId: created.body.tenant.id as string, email };
}

/** What the identity provider holds for the tenant: its organizations, the admin's users and the e-mails sent. */
async function providerRecordsOf(tenantId: string, email: string) {
  const count = async (sql: string, params: unknown[]) => Number(((await stack.service.orm.em.fork().execute(sql, params))[0] as { n: number }).n);
  return {
    organizations: await count(`select count(*)::int as n from idp_sim_organizations where jsonb_exists(attributes->'tenant_id', ?)`, [tenantId]),
    users: await count(`select count(*)::int as n from idp_sim_users where email = ?`, [email]),
    emails: (await capturedEmails(stack.service.orm, email)).length,
  };
}

const historyOf = async (workflowId: string) => (await intruder.workflow.getHandle(workflowId).fetchHistory()).events ?? [];

/** The failure of the first workflow task that failed after event `afterEventId`, once Temporal records it. */
const workflowTaskFailure = (workflowId: string, afterEventId = 0) =>
  eventually(async () => {
    const failed = (await historyOf(workflowId)).find(
      (event) => event.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_FAILED && Number(event.eventId) > afterEventId,
    );
    return failed?.workflowTaskFailedEventAttributes?.failure ?? undefined;
  }, 10_000, `a failed workflow task of ${workflowId}`);

/** Time for a worker that did run the command to reach the provider (a provisioning here takes well under a second). */
const settle = () => new Promise((resolve) => setTimeout(resolve, 1_500));

describe('Temporal payloads from a client without the payload key', () => {
  it('a tenant actor started with an unencrypted input fails its workflow task and never reaches the identity provider', async () => {
    const { tenantId, email } = await provisionedTenant();
    const before = await providerRecordsOf(tenantId, email);
    expect(before).toEqual({ organizations: 1, users: 1, emails: 1 });

    const handle = await intruder.workflow.signalWithStart('tenantActorWorkflow', {
      workflowId: `intruder-${randomUUID()}`,
      taskQueue: stack.taskQueue,
      args: [{ tenantId, retry: { initialIntervalMs: 100, backoffCoefficient: 2, maximumIntervalMs: 400, maximumAttempts: 3 } }],
      signal: 'provision',
      signalArgs: [],
    });
    started.push(handle);

    const failure = await workflowTaskFailure(handle.workflowId);
    expect(failure.message).toMatch(/not encrypted/);
    await settle();
    expect(await providerRecordsOf(tenantId, email)).toEqual(before);
    // The workflow's code never ran: no activity, no timer, no marker; only the task that keeps failing.
    const commands = (await historyOf(handle.workflowId)).filter((event) =>
      [EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED, EventType.EVENT_TYPE_MARKER_RECORDED, EventType.EVENT_TYPE_TIMER_STARTED].includes(event.eventType!),
    );
    expect(commands).toEqual([]);
    expect((await handle.describe()).status.name).toBe('RUNNING');
  });

  it("an unencrypted resendInvite signal to a tenant's running actor is not executed", async () => {
    const { tenantId, email } = await provisionedTenant();
    const before = await providerRecordsOf(tenantId, email);
    const actor = intruder.workflow.getHandle(tenantActorWorkflowId(tenantId));
    started.push(actor);
    const lastEventBefore = Number((await historyOf(actor.workflowId)).at(-1)!.eventId);

    await actor.signal(commandSignal('resendInvite'), { requested_by: 'mallory@intruder.example' });

    const failure = await workflowTaskFailure(actor.workflowId, lastEventBefore);
    expect(failure.message).toMatch(/not encrypted/);
    await settle();
    expect(await providerRecordsOf(tenantId, email)).toEqual(before);
    const resends = (await stack.service.request('GET', `/v1/audit?tenant_id=${tenantId}&action=idp.invite_sent`)).body.items.filter(
      (event: { metadata: { resend: boolean } }) => event.metadata.resend,
    );
    expect(resends).toEqual([]);
  });

  it('a signal without input carries no payload and runs, as an operator sends it from the Web UI or the CLI', async () => {
    const { tenantId, email } = await provisionedTenant();
    await intruder.workflow.getHandle(tenantActorWorkflowId(tenantId)).signal(commandSignal('resendInvite'));
    await eventually(async () => (await capturedEmails(stack.service.orm, email)).length === 2, 10_000, 'the resent invite');
  });
});
