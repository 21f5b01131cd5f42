import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capturedEmails, clearFaults, injectFault } from '../../../store/simulatorControl.ts';
import { actorStateQuery, sendInvitationAndWaitUpdate, tenantActorWorkflowId } from '../../../workflows/tenantActor/tenantActorMessages.ts';
import { startActorStack, type ActorStack } from '../../support/actorStack.ts';
import { eventually } from '../../support/eventually.ts';
import { uniqueSlug } from '../../support/testService.ts';

/**
 * Invitations as durable steps of the tenant's actor (SPEC-EXTENSIONS §8): real Temporal, real PostgreSQL and the
 * simulated identity provider with injected faults, through the API.
 */
let stack: ActorStack;
beforeAll(async () => {
  // Retries: 100 ms doubling to 400 ms, 3 attempts a step (the stack's defaults); a short wait for the link.
  stack = await startActorStack({ settings: { PROVISIONING_WAIT_MS: 8_000 } });
});
afterAll(() => stack.close());

const request = (method: string, path: string, body?: unknown) => stack.service.request(method, path, body);
const newTenant = async () => (await request('POST', '/v1/tenants', { slug: uniqueSlug('invwf'), name: 'Invitation steps' })).body.tenant as { id: string; slug: string };
const invitationOf = async (id: string) => (await request('GET', `/v1/invitations/${id}`)).body;
const auditOf = async (tenantId: string, action: string) =>
  (await request('GET', `/v1/audit?tenant_id=${tenantId}&action=${action}`)).body.items as { target_id: string; metadata: Record<string, unknown> }[];
const linkPath = (url: string) => new URL(url).pathname + new URL(url).search;
const handleOf = (tenantId: string) => stack.dispatcher.client.workflow.getHandle(tenantActorWorkflowId(tenantId));

describe("an invitation's send", () => {
  it('is retried while the provider is unavailable and sent once it answers: one e-mail, idp.invitation_sent with the user', async () => {
    const tenant = await newTenant();
    const email = `retry@${tenant.slug}.example`;
    await injectFault(stack.service.orm, { kind: 'unavailable', step: 'user', tenantSlug: tenant.slug, times: 2 });
    const res = await request('POST', `/v1/tenants/${tenant.id}/invitations`, { email });
    expect(res.status).toBe(201);
    expect(res.body.invite_url).toMatch(/action-token/);
    const [sent, ...more] = await auditOf(tenant.id, 'idp.invitation_sent');
    expect(more).toEqual([]);
    expect(sent).toMatchObject({ target_id: res.body.id, metadata: { invitation_id: res.body.id, user_id: expect.any(String), organization_id: expect.any(String), send_count: 1 } });
    expect(await capturedEmails(stack.service.orm, email)).toHaveLength(1);
    expect(await auditOf(tenant.id, 'idp.invitation_failed')).toEqual([]);
  });

  it('handed to the actor again with the same secret mails nobody and appends no second idp.invitation_sent', async () => {
    const tenant = await newTenant();
    const email = `twice@${tenant.slug}.example`;
    const res = await request('POST', `/v1/tenants/${tenant.id}/invitations`, { email });
    expect(res.body.invite_url).toMatch(/action-token/);
    // As when a workflow task is lost after the e-mail and the outbox hands the send off again, after other commands.
    const again = await handleOf(tenant.id).executeUpdate(sendInvitationAndWaitUpdate, { args: [{ kind: 'sendInvitation', invitation_id: res.body.id }] });
    expect(again.status).toBe('sent');
    expect(await capturedEmails(stack.service.orm, email)).toHaveLength(1);
    const sent = await auditOf(tenant.id, 'idp.invitation_sent');
    expect(sent).toHaveLength(1);
    expect(sent[0]!.metadata.outcome_id).toBe(`invitation:${res.body.id}:sent:1`);
  });

  it('failing for a kind that needs an operator is audited as idp.invitation_failed with its step; the invitation stays pending and a resend sends it', async () => {
    const tenant = await newTenant();
    const email = `denied@${tenant.slug}.example`;
    await injectFault(stack.service.orm, { kind: 'unauthorized', step: 'invite', tenantSlug: tenant.slug, times: 1 });
    const res = await request('POST', `/v1/tenants/${tenant.id}/invitations`, { email });
    expect(res.status).toBe(201);
    expect(res.body.invite_url).toBeUndefined();
    const failed = await eventually(async () => (await auditOf(tenant.id, 'idp.invitation_failed'))[0], 10_000, 'the failure');
    expect(failed.metadata).toMatchObject({ invitation_id: res.body.id, kind: 'unauthorized', step: 'invite', message: expect.stringContaining('401') });
    expect((await invitationOf(res.body.id)).state).toBe('pending');
    expect(await capturedEmails(stack.service.orm, email)).toEqual([]);

    const again = await request('POST', `/v1/invitations/${res.body.id}/resend`);
    expect(again).toMatchObject({ status: 200, body: { state: 'pending', send_count: 2, invite_url: expect.stringMatching(/action-token/) } });
    expect(await capturedEmails(stack.service.orm, email)).toHaveLength(1);
    await clearFaults(stack.service.orm, { tenantSlug: tenant.slug });
  });

  it("runs in one local activity with its event and puts the invitation's expiry in the actor's timeline without reading it again", async () => {
    const tenant = await newTenant();
    const first = await request('POST', `/v1/tenants/${tenant.id}/invitations`, { email: `first@${tenant.slug}.example` });
    expect(first.body.invite_url).toMatch(/action-token/);
    const before = (await handleOf(tenant.id).fetchHistory()).events!.length;
    const second = await request('POST', `/v1/tenants/${tenant.id}/invitations`, { email: `second@${tenant.slug}.example` });
    expect(second.body.invite_url).toMatch(/action-token/);

    const events = (await handleOf(tenant.id).fetchHistory()).events!.slice(before);
    const localActivities = events.flatMap((event) => {
      const data = event.markerRecordedEventAttributes?.details?.data?.payloads?.[0]?.data;
      return data ? [JSON.parse(Buffer.from(data).toString()).activity_type as string] : [];
    });
    expect(localActivities).toEqual(['runInvitationStepsRecorded']);
    const { timeline } = await handleOf(tenant.id).query(actorStateQuery);
    const expiries = timeline!.upcoming.filter((e) => e.kind === 'invitation_expired');
    expect(expiries).toEqual([
      { kind: 'invitation_expired', at: first.body.expires_at, invitationId: first.body.id },
      { kind: 'invitation_expired', at: second.body.expires_at, invitationId: second.body.id },
    ]);
    expect(await auditOf(tenant.id, 'idp.invitation_sent')).toHaveLength(2);
  });

  it('of an invitation revoked before the actor took it sends nothing', async () => {
    const tenant = await newTenant();
    const email = `late@${tenant.slug}.example`;
    await stack.stopWorker();
    let id: string;
    try {
      const res = await request('POST', `/v1/tenants/${tenant.id}/invitations`, { email });
      expect(res.body.invite_url).toBeUndefined();
      id = res.body.id;
      expect((await request('POST', `/v1/invitations/${id}/revoke`)).body.state).toBe('revoked');
    } finally {
      await stack.startWorker();
    }
    await eventually(async () => (await handleOf(tenant.id).query(actorStateQuery)).timeline !== undefined, 10_000, 'the actor ran');
    await new Promise((r) => setTimeout(r, 1_000));
    expect(await capturedEmails(stack.service.orm, email)).toEqual([]);
    expect(await auditOf(tenant.id, 'idp.invitation_sent')).toEqual([]);
    expect((await invitationOf(id)).state).toBe('revoked');
  });
});

describe("an invitation's expiry", () => {
  it('fires on the actor\'s durable timer across a worker restart: expired within 5 s of its time, the link closed, the pending member gone', async () => {
    const tenant = await newTenant();
    const res = await request('POST', `/v1/tenants/${tenant.id}/invitations`, { email: `exp@${tenant.slug}.example`, roles: ['MEMBER'] });
    const userId = await eventually(async () => (await auditOf(tenant.id, 'idp.invitation_sent'))[0]?.metadata.user_id as string | undefined, 10_000, 'the send');
    // The invitation's time brought near; a claims push makes the actor read its timeline again.
    const expiresAt = new Date(Date.now() + 6_000);
    await stack.service.orm.em.fork().execute('update invitations set expires_at = ? where id = ?', [expiresAt, res.body.id]);
    await stack.dispatcher.deliver(tenant.id, { kind: 'pushClaims' });
    await eventually(
      async () => (await handleOf(tenant.id).query(actorStateQuery)).timeline?.upcoming.some((e) => e.kind === 'invitation_expired' && Date.parse(e.at) === expiresAt.getTime()),
      10_000,
      'the timer set',
    );
    await stack.stopWorker();
    await new Promise((r) => setTimeout(r, Math.max(0, expiresAt.getTime() - Date.now()) + 500));
    await stack.startWorker();
    const expired = await eventually(async () => (await auditOf(tenant.id, 'invitation.expired'))[0], 10_000, 'invitation.expired');
    expect(expired.target_id).toBe(res.body.id);
    expect((await invitationOf(res.body.id)).state).toBe('expired');
    expect((await request('GET', linkPath(res.body.invite_url))).status).toBe(404);
    expect((await request('GET', `/v1/tenants/${tenant.id}/members/${userId}`)).status).toBe(404);
    await eventually(async () => !(await stack.idp.listTenantUserIds(tenant.id)).includes(userId), 10_000, 'the user out of the organization');
    expect(await auditOf(tenant.id, 'invitation.expired')).toHaveLength(1);
    // Resent, the expired invitation is pending again with a new link.
    expect((await request('POST', `/v1/invitations/${res.body.id}/resend`)).body).toMatchObject({ state: 'pending', send_count: 2 });
  }, 60_000);

  it('set while the worker is down fires once it is back', async () => {
    const tenant = await newTenant();
    const res = await request('POST', `/v1/tenants/${tenant.id}/invitations`, { email: `down@${tenant.slug}.example`, send_email: false });
    await eventually(async () => (await auditOf(tenant.id, 'idp.invitation_sent'))[0], 10_000, 'the send');
    await stack.stopWorker();
    try {
      await stack.service.orm.em.fork().execute('update invitations set expires_at = ? where id = ?', [new Date(Date.now() + 1_000), res.body.id]);
      await stack.dispatcher.deliver(tenant.id, { kind: 'pushClaims' });
      await new Promise((r) => setTimeout(r, 1_500));
    } finally {
      await stack.startWorker();
    }
    await eventually(async () => (await invitationOf(res.body.id)).state === 'expired', 10_000, 'expired');
  }, 60_000);
});

describe('a resend racing an acceptance', () => {
  it('ends one way or the other, never both: accepted and the resend refused, or resent and the old link refused', async () => {
    const tenant = await newTenant();
    const outcomes = new Set<string>();
    for (let round = 0; round < 6; round += 1) {
      const res = await request('POST', `/v1/tenants/${tenant.id}/invitations`, { email: `race${round}@${tenant.slug}.example`, send_email: false });
      await eventually(async () => (await auditOf(tenant.id, 'idp.invitation_sent')).some((e) => e.target_id === res.body.id), 10_000, 'the send');
      const [resent, completed] = await Promise.all([
        request('POST', `/v1/invitations/${res.body.id}/resend`),
        request('POST', linkPath(res.body.invite_url), { password: 'correct horse battery' }),
      ]);
      const invitation = await invitationOf(res.body.id);
      if (completed.status === 200) {
        expect(invitation.state, `round ${round}`).toBe('accepted');
        expect(resent.status, `round ${round}`).toBe(409);
        outcomes.add('accepted');
      } else {
        expect(completed.status, `round ${round}`).toBe(404);
        expect(resent.status, `round ${round}`).toBe(200);
        expect(invitation).toMatchObject({ state: 'pending', send_count: 2 });
        outcomes.add('resent');
      }
      // The member's record itself (this test's API has no change listener to hear the worker's writes in its cache).
      const members = await stack.service.orm.em.fork().execute<{ status: string }[]>('select status from members where tenant_id = ? and email = ?', [tenant.id, `race${round}@${tenant.slug}.example`]);
      expect(members.map((m) => m.status), `round ${round}`).toEqual([invitation.state === 'accepted' ? 'active' : 'pending']);
    }
    expect(outcomes.size).toBeGreaterThan(0);
  }, 90_000);
});
