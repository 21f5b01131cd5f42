import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import proto from '@temporalio/proto';
import { capturedEmails, clearFaults, injectFault, seedForeignOrganization, seedForeignUser } from '../../../store/simulatorControl.ts';
import { actorStateQuery, commandSignal, tenantActorWorkflowId, type TenantActorInput } from '../../../workflows/tenantActor/tenantActorMessages.ts';
import { startActorStack, type ActorStack } from '../../support/actorStack.ts';
import { eventually } from '../../support/eventually.ts';
import { uniqueSlug } from '../../support/testService.ts';

const { EventType } = proto.temporal.api.enums.v1;

let stack: ActorStack;
beforeAll(async () => {
  stack = await startActorStack();
});
afterAll(() => stack.close());

const createTenant = async (extra: Record<string, unknown> = {}) => {
  const slug = uniqueSlug('idp');
  const res = await stack.service.request('POST', '/v1/tenants', { slug, name: `Tenant ${slug}`, admin_email: `admin@${slug}.example`, ...extra });
  expect(res.status).toBe(201);
  return { slug, email: `admin@${slug}.example`, tenantId: res.body.tenant.id as string, body: res.body };
};

const auditOf = async (tenantId: string, action: string) =>
  (await stack.service.request('GET', `/v1/audit?tenant_id=${tenantId}&action=${action}`)).body.items as Array<{ metadata: Record<string, unknown> }>;

type HistoryEvent = proto.temporal.api.history.v1.IHistoryEvent;
/** What a marker of core's records (a local activity's, a patch's), as the JSON its detail `key` holds. */
const markerData = <T>(event: HistoryEvent, markerName: string, key: string): T | undefined => {
  const marker = event.markerRecordedEventAttributes;
  const data = marker?.markerName === markerName ? marker.details?.[key]?.payloads?.[0]?.data : undefined;
  return data ? (JSON.parse(Buffer.from(data).toString('utf8')) as T) : undefined;
};
/** The activity types of a run's local activities, in order: each leaves a marker naming it. */
const localActivityTypes = (events: HistoryEvent[]) =>
  events.flatMap((e) => markerData<{ activity_type: string }>(e, 'core_local_activity', 'data')?.activity_type ?? []);

const simCount = async (table: string, where: string, params: unknown[]) =>
  Number(((await stack.service.orm.em.fork().execute(`select count(*)::int as n from ${table} where ${where}`, params))[0] as { n: number }).n);

describe('provisioning through the tenant actor', () => {
  it('answers 201 with a non-empty invite_url and appends idp.invite_sent when every step succeeds', async () => {
    const { tenantId, email, body } = await createTenant();
    expect(body.invite_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/idp-sim\/login-actions\/action-token\?key=[\w-]{43}$/);
    const sent = await eventually(async () => (await auditOf(tenantId, 'idp.invite_sent'))[0], 10_000, 'idp.invite_sent');
    expect(sent.metadata).toMatchObject({ resend: false });
    // The provider's ids, so a caller can go from the tenant to GET /v1/users/{id}/memberships.
    const [user] = await stack.service.orm.em.fork().execute(`select id from idp_sim_users where email = ?`, [email]);
    expect(sent.metadata.user_id).toBe(user!.id);
    expect(sent.metadata.organization_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(sent.metadata.requested_by).toBeUndefined();
    const emails = await capturedEmails(stack.service.orm, email);
    expect(emails).toHaveLength(1);
    expect(emails[0]!.actions).toEqual(['VERIFY_EMAIL', 'UPDATE_PASSWORD']);
    expect(emails[0]!.actionUrl).toBe(body.invite_url);
  });

  it("keys the invite ledger and idp.invite_sent by the actor's first run and the provisioning's count, not by the command's place in its run", async () => {
    const { tenantId } = await createTenant();
    const sent = await eventually(async () => (await auditOf(tenantId, 'idp.invite_sent'))[0], 10_000, 'idp.invite_sent');
    const described = await stack.dispatcher.client.workflow.getHandle(tenantActorWorkflowId(tenantId)).describe();
    const firstRunId = described.raw.workflowExecutionInfo?.firstRunId;
    expect(firstRunId).toBeTruthy();
    // A worker lost after the e-mail forgets the update that asked; the outbox asks again, maybe after other commands.
    const keys = await stack.service.orm.em.fork().execute(`select run_key from provisioning_invites where tenant_id = ?`, [tenantId]);
    expect(keys.map((k) => k.run_key)).toEqual([`${firstRunId}:provision:1`]);
    // The outcome event too: a redo appends nothing (appendOutcomeOnce), as the ledger mails nobody.
    expect(sent.metadata.outcome_id).toBe(`${firstRunId}:provision:1`);
  });

  it('serves the simulated invite link as the page of the pending required actions', async () => {
    const { email, body } = await createTenant();
    const page = await fetch(body.invite_url);
    expect(page.status).toBe(200);
    expect(await page.json()).toEqual({ email, asks: 'set_password', required_actions: ['VERIFY_EMAIL', 'UPDATE_PASSWORD'], actions: ['VERIFY_EMAIL', 'UPDATE_PASSWORD'] });
    const forged = await fetch(body.invite_url.replace(/key=.*/, 'key=forged'));
    expect(forged.status).toBe(404);
  });

  it('creates the organization, the IT_ADMIN user and the membership for the tenant', async () => {
    const { tenantId, email } = await createTenant();
    const users = await stack.service.orm.em.fork().execute(`select id, realm_roles, required_actions from idp_sim_users where email = ?`, [email]);
    expect(users).toHaveLength(1);
    expect(users[0]!.realm_roles).toContain('IT_ADMIN');
    expect(await simCount('idp_sim_organizations', `jsonb_exists(attributes->'tenant_id', ?)`, [tenantId])).toBe(1);
    expect(await simCount('idp_sim_memberships', 'user_id = ?', [users[0]!.id])).toBe(1);
  });

  it('ends in idp.provision_failed with kind organization_exists and step organization when the alias belongs to another', async () => {
    const slug = uniqueSlug('orgx');
    await seedForeignOrganization(stack.service.orm, { alias: slug });
    const res = await stack.service.request('POST', '/v1/tenants', { slug, name: 'Org Exists', admin_email: `a@${slug}.example` });
    expect(res.status).toBe(201);
    expect(res.body.invite_url).toBeUndefined();
    const failed = await eventually(async () => (await auditOf(res.body.tenant.id, 'idp.provision_failed'))[0]);
    expect(failed.metadata).toMatchObject({ kind: 'organization_exists', step: 'organization' });
  });

  it('ends in idp.provision_failed with kind user_exists and step user when the e-mail belongs to another user', async () => {
    const slug = uniqueSlug('userx');
    await seedForeignUser(stack.service.orm, { email: `a@${slug}.example` });
    const res = await stack.service.request('POST', '/v1/tenants', { slug, name: 'User Exists', admin_email: `a@${slug}.example` });
    expect(res.body.invite_url).toBeUndefined();
    const failed = await eventually(async () => (await auditOf(res.body.tenant.id, 'idp.provision_failed'))[0]);
    expect(failed.metadata).toMatchObject({ kind: 'user_exists', step: 'user' });
  });

  it('ends in idp.provision_failed with kind unauthorized without retrying when the admin client is refused', async () => {
    const slug = uniqueSlug('unauth');
    await injectFault(stack.service.orm, { kind: 'unauthorized', step: 'organization', tenantSlug: slug, times: 10 });
    const res = await stack.service.request('POST', '/v1/tenants', { slug, name: 'Unauthorized', admin_email: `a@${slug}.example` });
    expect(res.body.invite_url).toBeUndefined();
    const failed = await eventually(async () => (await auditOf(res.body.tenant.id, 'idp.provision_failed'))[0]);
    expect(failed.metadata).toMatchObject({ kind: 'unauthorized', step: 'organization' });
    const remaining = await stack.service.orm.em.fork().execute(`select remaining from idp_sim_faults where tenant_slug = ?`, [slug]);
    expect(remaining[0]!.remaining).toBe(9);
  });

  it('retries an unavailable provider with backoff, then ends in idp.provision_failed with kind unavailable', async () => {
    const slug = uniqueSlug('unavail');
    await injectFault(stack.service.orm, { kind: 'unavailable', step: 'invite', tenantSlug: slug, times: 50 });
    const res = await stack.service.request('POST', '/v1/tenants', { slug, name: 'Unavailable', admin_email: `a@${slug}.example` });
    expect(res.body.invite_url).toBeUndefined();
    const failed = await eventually(async () => (await auditOf(res.body.tenant.id, 'idp.provision_failed'))[0]);
    expect(failed.metadata).toMatchObject({ kind: 'unavailable', step: 'invite' });
    const remaining = await stack.service.orm.em.fork().execute(`select remaining from idp_sim_faults where tenant_slug = ?`, [slug]);
    // maximumAttempts is 3 in this stack: three attempts consumed three faults.
    expect(remaining[0]!.remaining).toBe(47);
  });

  it('completes a failed provisioning when an operator sends retryProvisioning after the cause is removed', async () => {
    const slug = uniqueSlug('retry');
    await injectFault(stack.service.orm, { kind: 'unauthorized', tenantSlug: slug });
    const res = await stack.service.request('POST', '/v1/tenants', { slug, name: 'Retry', admin_email: `a@${slug}.example` });
    const tenantId = res.body.tenant.id;
    await eventually(async () => (await auditOf(tenantId, 'idp.provision_failed'))[0]);
    await clearFaults(stack.service.orm, { tenantSlug: slug });
    const signal = await stack.service.request('POST', `/v1/tenants/${tenantId}/idp/retry-provisioning`, { requested_by: 'ops@example.com' });
    expect(signal.status).toBe(202);
    expect(signal.body).toEqual({ workflow_id: tenantActorWorkflowId(tenantId), signal: 'retryProvisioning' });
    const sent = await eventually(async () => (await auditOf(tenantId, 'idp.invite_sent'))[0]);
    // Authentication is off in this stack: no authenticated requester, the body's name is a note.
    expect(sent.metadata).toMatchObject({ note: 'ops@example.com', requested_via: 'api' });
    expect(sent.metadata.requested_by).toBeUndefined();
    expect(sent.metadata.user_id).toBeDefined();
    expect(sent.metadata.organization_id).toBeDefined();
    // The failure before the retry came from the tenant's creation, which no operator asked for.
    expect((await auditOf(tenantId, 'idp.provision_failed'))[0]!.metadata).not.toHaveProperty('requested_via');
    expect(await simCount('idp_sim_organizations', `jsonb_exists(attributes->'tenant_id', ?)`, [tenantId])).toBe(1);
  });

  it('sends the invite again on resendInvite, appending a second idp.invite_sent marked as a resend', async () => {
    const { tenantId, email } = await createTenant();
    const signal = await stack.service.request('POST', `/v1/tenants/${tenantId}/idp/resend-invite`, { requested_by: 'support@example.com' });
    expect(signal.status).toBe(202);
    const resent = await eventually(async () => (await auditOf(tenantId, 'idp.invite_sent')).find((e) => e.metadata.resend === true));
    expect(resent).toBeDefined();
    expect(resent!.metadata).toMatchObject({ note: 'support@example.com', requested_via: 'api' });
    expect(resent!.metadata.user_id).toBeDefined();
    const emails = await capturedEmails(stack.service.orm, email);
    expect(emails).toHaveLength(2);
    expect(emails[0]!.actionUrl).not.toBe(emails[1]!.actionUrl);
  });

  it('a resendInvite signalled through Temporal (Web UI, CLI) records the name the operator typed as requested_by, requested via temporal', async () => {
    const { tenantId } = await createTenant();
    await stack.dispatcher.client.workflow.getHandle(tenantActorWorkflowId(tenantId)).signal(commandSignal('resendInvite'), { requested_by: 'alice@ops.example' });
    const resent = await eventually(async () => (await auditOf(tenantId, 'idp.invite_sent')).find((e) => e.metadata.resend === true), 10_000, 'the resend');
    expect(resent!.metadata).toMatchObject({ requested_by: 'alice@ops.example', requested_via: 'temporal' });
    expect(resent!.metadata).not.toHaveProperty('note');
  });

  it('never provisions twice when the hand-off is repeated', async () => {
    const { tenantId, email } = await createTenant();
    await stack.dispatcher.deliver(tenantId, { kind: 'provision' });
    await stack.dispatcher.deliver(tenantId, { kind: 'provision' });
    const handle = stack.dispatcher.client.workflow.getHandle(tenantActorWorkflowId(tenantId));
    await eventually(async () => (await handle.query(actorStateQuery)).runs === 1 && (await handle.describe()).historyLength > 0);
    expect((await handle.query(actorStateQuery)).runs).toBe(1);
    expect(await capturedEmails(stack.service.orm, email)).toHaveLength(1);
    expect(await auditOf(tenantId, 'idp.invite_sent')).toHaveLength(1);
  });

  it('answers 404 to operator signals for an unknown tenant', async () => {
    const res = await stack.service.request('POST', '/v1/tenants/00000000-0000-4000-8000-000000000000/idp/resend-invite');
    expect(res.status).toBe(404);
  });
});

describe('how the provisioning steps run', () => {
  const scheduledActivities = (history: { events?: Array<{ activityTaskScheduledEventAttributes?: { activityType?: { name?: string | null } | null } | null }> | null }) =>
    (history.events ?? []).map((e) => e.activityTaskScheduledEventAttributes?.activityType?.name).filter(Boolean);
  /** Local activities leave a marker each, naming the activity; the timeline's reads are left out. */
  const TIMELINE_ACTIVITIES = ['loadTenantTimeline', 'applyDueLifecycle', 'recordClaimsPushFailure'];
  const localActivities = (history: { events?: HistoryEvent[] | null }) => localActivityTypes(history.events ?? []).filter((name) => !TIMELINE_ACTIVITIES.includes(name));

  it("an actor the API starts runs the provider's steps as one local activity: no activity task goes through the server", async () => {
    const { tenantId } = await createTenant();
    await eventually(async () => (await auditOf(tenantId, 'idp.invite_sent'))[0], 10_000, 'idp.invite_sent');
    const history = await stack.dispatcher.client.workflow.getHandle(tenantActorWorkflowId(tenantId)).fetchHistory();
    expect(scheduledActivities(history)).toEqual([]);
    expect(localActivities(history)).toEqual(['loadTenantForProvisioning', 'runProviderSteps', 'recordProvisioningOutcome']);
  });

  it("captures no stack for the actor's promises: the SDK's stack-trace query names no frame", async () => {
    const { tenantId } = await createTenant();
    await eventually(async () => (await auditOf(tenantId, 'idp.invite_sent'))[0], 10_000, 'idp.invite_sent');
    // The actor is waiting for its next command: without the sandbox's stackTraceLimit of 0 this names its frames.
    const trace = await stack.dispatcher.client.workflow.getHandle(tenantActorWorkflowId(tenantId)).query<string>('__stack_trace');
    expect(trace).not.toMatch(/^\s+at /m);
    expect(trace).not.toContain('tenantActor');
  });
});

describe('claims pushed through the actor', () => {
  it("pushes status, plan and products into the admin's attributes when the tenant is activated or gets a trial", async () => {
    const { tenantId, email } = await createTenant();
    expect((await stack.service.request('POST', `/v1/tenants/${tenantId}/activate`, { plan: 'growth' })).status).toBe(200);
    expect((await stack.service.request('POST', '/v1/catalog/trial-request', { tenant_id: tenantId, product: 'analytics' })).status).toBe(201);
    const attributes = await eventually(async () => {
      const rows = await stack.service.orm.em.fork().execute(`select attributes from idp_sim_users where email = ?`, [email]);
      const attrs = rows[0]?.attributes as Record<string, string[]> | undefined;
      return attrs?.tenant_status?.[0] === 'active' && attrs.products?.includes('analytics') ? attrs : undefined;
    });
    expect(attributes).toMatchObject({ tenant_id: [tenantId], plan: ['growth'], tenant_status: ['active'], products: ['analytics'] });
  });
});

describe('GET /v1/users/{id}/memberships', () => {
  it("lists the user's tenants with status, plan and products from the registry and source registry", async () => {
    const { tenantId, email, slug } = await createTenant();
    const users = await stack.service.orm.em.fork().execute(`select id from idp_sim_users where email = ?`, [email]);
    const res = await stack.service.request('GET', `/v1/users/${users[0]!.id}/memberships`);
    expect(res.status).toBe(200);
    expect(res.body.items).toEqual([
      expect.objectContaining({ tenant_id: tenantId, tenant_slug: slug, status: 'trial', plan: 'starter', products: [], source: 'registry' }),
    ]);
  });

  it('answers an empty list for a user the provider does not know', async () => {
    const res = await stack.service.request('GET', '/v1/users/00000000-0000-4000-8000-000000000001/memberships');
    expect(res).toMatchObject({ status: 200, body: { items: [] } });
  });
});

describe('GET /readyz with the actor stack', () => {
  it('reports the identity provider and Temporal beside the store', async () => {
    const res = await stack.service.request('GET', '/readyz');
    expect(res.status).toBe(200);
    expect(res.body.checks).toMatchObject({ store: { status: 'up' }, identity_provider: { status: 'up' }, temporal: { status: 'up' } });
  });
});

describe('a long-lived tenant actor', () => {
  /**
   * Replaces a provisioned tenant's actor with a run started as continue-as-new would start it, with `overrides`
   * (a small budget or bound, carried commands): the provider's user id comes from the simulated provider.
   */
  async function restartProvisionedActor(tenantId: string, email: string, reason: string, overrides: Partial<TenantActorInput>) {
    const client = stack.dispatcher.client;
    const workflowId = tenantActorWorkflowId(tenantId);
    await client.workflow.getHandle(workflowId).terminate(`test: ${reason}`);
    const users = await stack.service.orm.em.fork().execute(`select id from idp_sim_users where email = ?`, [email]);
    const userId = users[0]!.id as string;
    await client.workflow.start('tenantActorWorkflow', {
      workflowId,
      taskQueue: stack.taskQueue,
      args: [{ tenantId, retry: { initialIntervalMs: 100, backoffCoefficient: 2, maximumIntervalMs: 400, maximumAttempts: 3 }, state: { provisioning: 'succeeded', runs: 1, userId }, ...overrides }],
    });
    return { client, workflowId, userId, handle: client.workflow.getHandle(workflowId) };
  }

  it('continues as new after its command budget, keeping its state and serving later signals', async () => {
    const { tenantId, email } = await createTenant();
    const first = await stack.dispatcher.client.workflow.getHandle(tenantActorWorkflowId(tenantId)).describe();
    // Restart the actor with a budget of two commands so continue-as-new happens within the test.
    const { client, workflowId, userId, handle } = await restartProvisionedActor(tenantId, email, 'restart with a small command budget', { maxCommandsPerRun: 2 });
    const started = await handle.describe();
    for (let i = 0; i < 3; i++) {
      await stack.service.request('POST', `/v1/tenants/${tenantId}/idp/resend-invite`);
      await eventually(async () => (await capturedEmails(stack.service.orm, email)).length === 2 + i, 10_000, `resend ${i + 1}`);
    }
    const latest = await eventually(async () => {
      const d = await client.workflow.getHandle(workflowId).describe();
      return d.runId !== started.runId ? d : undefined;
    });
    expect(latest.runId).not.toBe(first.runId);
    const after = await client.workflow.getHandle(workflowId).query(actorStateQuery);
    expect(after).toMatchObject({ provisioning: 'succeeded', runs: 1, userId });
  });

  it('continues as new once its history reaches its bound and nothing is queued, keeping its state and serving later commands', async () => {
    const { tenantId, email } = await createTenant();
    const HISTORY_BOUND = 30;
    const { client, workflowId, userId, handle } = await restartProvisionedActor(tenantId, email, 'restart with a small history bound', { historyEventsPerRun: HISTORY_BOUND });
    const started = await handle.describe();
    // Each resend is a command of ~10 events: the bound is crossed by the third at the latest.
    for (let i = 0; i < 3; i++) {
      await stack.service.request('POST', `/v1/tenants/${tenantId}/idp/resend-invite`);
      await eventually(async () => (await capturedEmails(stack.service.orm, email)).length === 2 + i, 10_000, `resend ${i + 1}`);
    }
    await eventually(async () => (await handle.describe()).runId !== started.runId, 10_000, 'the next run');
    const closed = (await client.workflow.getHandle(workflowId, started.runId).fetchHistory()).events ?? [];
    expect(closed.at(-1)?.eventType).toBe(EventType.EVENT_TYPE_WORKFLOW_EXECUTION_CONTINUED_AS_NEW);
    expect(closed.length).toBeGreaterThanOrEqual(HISTORY_BOUND);
    expect(await handle.query(actorStateQuery)).toMatchObject({ provisioning: 'succeeded', runs: 1, userId });
    // No patch marker: no release is tagged, so the code asks no patched() (docs/decisions.md).
    const patchMarkers = (events: typeof closed) => events.filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_patch');
    expect(patchMarkers(closed)).toEqual([]);
    // The run it continues as serves commands and leaves in turn.
    const second = await handle.describe();
    for (let i = 0; i < 3; i++) {
      await stack.service.request('POST', `/v1/tenants/${tenantId}/idp/resend-invite`);
      await eventually(async () => (await capturedEmails(stack.service.orm, email)).length === 5 + i, 10_000, `resend ${i + 1} by the next run`);
    }
    await eventually(async () => (await handle.describe()).runId !== second.runId, 10_000, 'the run after');
    const secondEvents = (await client.workflow.getHandle(workflowId, second.runId).fetchHistory()).events ?? [];
    expect(secondEvents.at(-1)?.eventType).toBe(EventType.EVENT_TYPE_WORKFLOW_EXECUTION_CONTINUED_AS_NEW);
    expect(patchMarkers(secondEvents)).toEqual([]);
  });

  it('reads its timeline once the commands queued are handled, not before each of them', async () => {
    const { tenantId, email } = await createTenant();
    const { handle } = await restartProvisionedActor(tenantId, email, 'restart with three commands queued', {
      pending: [1, 2, 3].map(() => ({ kind: 'resendInvite' as const, requested_by: 'ops-console', requested_via: 'api' as const })),
    });
    await eventually(async () => ((await capturedEmails(stack.service.orm, email)).length === 4 ? true : undefined), 10_000, 'three resends');
    await eventually(async () => ((await handle.query(actorStateQuery)).timeline ? true : undefined), 10_000, 'the timeline');
    const localActivities = localActivityTypes((await handle.fetchHistory()).events ?? []);
    expect(localActivities.filter((type) => type === 'loadTenantTimeline')).toHaveLength(1);
  });

  it("handles the commands a run carried over to the next, an operator's with who asked", async () => {
    const { tenantId, email } = await createTenant();
    await restartProvisionedActor(tenantId, email, 'restart as continue-as-new would, with a command pending', {
      pending: [{ kind: 'resendInvite', requested_by: 'ops-console', note: 'carried@example.com', requested_via: 'api' }],
    });
    const resent = await eventually(async () => (await auditOf(tenantId, 'idp.invite_sent')).find((e) => e.metadata.resend === true), 10_000, 'the carried resend');
    expect(resent!.metadata).toMatchObject({ requested_by: 'ops-console', note: 'carried@example.com', requested_via: 'api' });
    expect(await capturedEmails(stack.service.orm, email)).toHaveLength(2);
  });
});
