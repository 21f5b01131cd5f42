import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IdpFailureKind } from '../../../domain/provisioning/provisioningVocabulary.ts';
import { SimulatedIdentityProvider } from '../../../identityProvider/simulatedIdentityProvider.ts';
import { actorStateQuery, tenantActorWorkflowId } from '../../../workflows/tenantActor/tenantActorMessages.ts';
import { startActorStack, type ActorStack } from '../../support/actorStack.ts';
import { refusingProvider } from '../../support/refusingProvider.ts';
import { eventually } from '../../support/eventually.ts';
import { uniqueSlug } from '../../support/testService.ts';
import { createWorkerMetrics } from '../../../platform/metrics/workerMetrics.ts';

/**
 * A directory's deprovisioning as durable steps of the tenant's actor under provider faults (SPEC-EXTENSIONS §10):
 * real Temporal, real PostgreSQL and the simulated identity provider, through the SCIM endpoint. A leaver is never
 * dropped: what outlasts the retry policy waits on the actor's timer, not on the next change.
 */
let stack: ActorStack;
const metrics = createWorkerMetrics({ ready: async () => true, certificates: [] });
const directorySyncFailures = async () => (await metrics.providerSyncFailures.get()).values.find((v) => v.labels.sync === 'directory')?.value ?? 0;
/** The provider refuses to disable (or enable) these users, `times` times, as a Keycloak answering 503 or 401 would. */
const refusals = new Map<string, { kind: IdpFailureKind; times: number }>();

/** Takes one refusal of the user's, if it has any left. */
function refusalOf(userId: string): IdpFailureKind | undefined {
  const refusal = refusals.get(userId);
  if (!refusal || refusal.times <= 0) return undefined;
  refusal.times -= 1;
  return refusal.kind;
}

beforeAll(async () => {
  // Retries: 100 ms doubling to 400 ms, 3 attempts a step (the stack's defaults).
  stack = await startActorStack({
    idp: (service) => refusingProvider(new SimulatedIdentityProvider(service.deps.orm, service.baseUrl), 'setUserEnabled', (userId) => refusalOf(userId)),
    workerMetrics: metrics,
  });
});
afterAll(() => stack.close());

const sql = (text: string, values: unknown[]) => stack.service.orm.em.fork().execute<Record<string, any>[]>(text, values);
const memberOf = async (tenantId: string, email: string) => (await sql('select user_id, status from members where tenant_id = ? and email = ?', [tenantId, email]))[0];
const providerUser = async (email: string) => (await sql('select id, enabled from idp_sim_users where email = ?', [email]))[0];
const auditOf = async (tenantId: string, action: string) =>
  (await stack.service.request('GET', `/v1/audit?tenant_id=${tenantId}&action=${action}`)).body.items as { target_id: string; metadata: Record<string, unknown> }[];
const actorHandle = (tenantId: string) => stack.dispatcher.client.workflow.getHandle(tenantActorWorkflowId(tenantId));
const actorState = (tenantId: string) => actorHandle(tenantId).query(actorStateQuery);
const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

/** A tenant with a directory and one active SCIM user, its member and provider user made. */
async function activeDirectoryUser() {
  const tenant = (await stack.service.request('POST', '/v1/tenants', { slug: uniqueSlug('scimwf'), name: 'Directory faults' })).body.tenant as { id: string; slug: string };
  const directory = (await stack.service.request('POST', `/v1/tenants/${tenant.id}/directories`, {})).body as { id: string; token: string };
  const scim = (method: string, path: string, body?: unknown) =>
    stack.service.request(method, `/scim/v2/directories/${directory.id}${path}`, body, {
      authorization: `Bearer ${directory.token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/scim+json' }),
    });
  const email = `leaver@${tenant.slug}.example`;
  const created = await scim('POST', '/Users', { schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], userName: email, emails: [{ value: email, primary: true }], active: true });
  expect(created.status).toBe(201);
  await eventually(async () => (await memberOf(tenant.id, email))?.status === 'active', 10_000, 'the member');
  await eventually(async () => (await providerUser(email))?.enabled === true, 10_000, 'the provider user');
  // Both are written before the creation's sync makes its last provider call: a refusal set earlier would be its.
  await eventually(async () => ((await actorHandle(tenant.id).describe()).raw.pendingActivities?.length ?? 0) === 0, 10_000, "the creation's sync done");
  return { tenant, email, scimUserId: created.body.id as string, userId: (await providerUser(email))!.id as string, scim };
}

describe("a directory's deprovisioning under provider faults", () => {
  it('a deactivation the provider refuses past the retry policy is audited once, kept in the actor state and retried on its timer until the provider user is disabled', async () => {
    const { tenant, email, scimUserId, userId, scim } = await activeDirectoryUser();
    const failuresBefore = await directorySyncFailures();
    // Five refusals of the disabling: the three attempts of the first try, two more of the timer's.
    refusals.set(userId, { kind: 'unavailable', times: 5 });
    const patched = await scim('PATCH', `/Users/${scimUserId}`, { schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'active', value: false }] });
    expect(patched).toMatchObject({ status: 200, body: { active: false } });
    await eventually(async () => (await memberOf(tenant.id, email))?.status === 'inactive', 10_000, 'the member inactive');
    const [failed, ...more] = await eventually(async () => {
      const events = await auditOf(tenant.id, 'idp.directory_sync_failed');
      return events.length > 0 ? events : undefined;
    }, 10_000, 'the failure audited');
    expect(more).toEqual([]);
    expect(failed!.metadata).toMatchObject({ kind: 'unavailable' });
    expect((await actorState(tenant.id)).directorySync?.[scimUserId]).toMatchObject({ kind: 'unavailable', attempts: 1, retryAt: expect.any(String) });
    expect((await providerUser(email))?.enabled).toBe(true);
    // PUSH_RETRY's first wait is 5 s: the timer's try gets past the two refusals left.
    await eventually(async () => (await providerUser(email))?.enabled === false, 20_000, 'the provider user disabled by the retry');
    await eventually(async () => (await actorState(tenant.id)).directorySync === undefined, 5_000, 'the failure cleared');
    expect(await auditOf(tenant.id, 'idp.directory_sync_failed')).toHaveLength(1);
    // Counted as audited, once for the streak: what the directory sync alert reads (tenant_registry_provider_sync_failures_total).
    expect((await directorySyncFailures()) - failuresBefore).toBe(1);
  }, 60_000);

  it('a deletion while no worker runs completes when one is back: the member removed, the provider user the directory made disabled', async () => {
    const { tenant, email, scimUserId, scim } = await activeDirectoryUser();
    await stack.stopWorker();
    try {
      expect((await scim('DELETE', `/Users/${scimUserId}`)).status).toBe(204);
      await new Promise((r) => setTimeout(r, 1_000));
      expect((await memberOf(tenant.id, email))?.status).toBe('active');
    } finally {
      await stack.startWorker();
    }
    await eventually(async () => (await memberOf(tenant.id, email)) === undefined, 15_000, 'the member removed');
    await eventually(async () => (await providerUser(email))?.enabled === false, 10_000, 'the provider user disabled');
    // The SCIM user is forgotten after the provider's step, in the same activity: a loaded machine can show the gap.
    await eventually(async () => (await sql('select count(*)::int as n from directory_users where id = ?', [scimUserId]))[0]!.n === 0, 10_000, 'the SCIM user forgotten');
  }, 60_000);

  it('a deletion whose provider step fails for a kind that needs an operator waits in the actor state without a timer; the operator\'s retry completes it', async () => {
    const { tenant, email, scimUserId, userId, scim } = await activeDirectoryUser();
    refusals.set(userId, { kind: 'unauthorized', times: 1 });
    expect((await scim('DELETE', `/Users/${scimUserId}`)).status).toBe(204);
    await eventually(async () => (await auditOf(tenant.id, 'idp.directory_sync_failed'))[0], 10_000, 'the failure audited');
    const kept = (await actorState(tenant.id)).directorySync?.[scimUserId];
    expect(kept).toMatchObject({ kind: 'unauthorized', attempts: 1 });
    expect(kept?.retryAt).toBeUndefined();
    expect((await providerUser(email))?.enabled).toBe(true);
    expect((await stack.service.request('POST', `/v1/tenants/${tenant.id}/idp/retry-provisioning`)).status).toBe(202);
    await eventually(async () => (await providerUser(email))?.enabled === false, 10_000, 'the provider user disabled by the retry');
    await eventually(async () => (await memberOf(tenant.id, email)) === undefined, 10_000, 'the member removed');
    expect((await actorState(tenant.id)).directorySync).toBeUndefined();
  }, 60_000);
});
