import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApplicationFailure } from '@temporalio/activity';
import { capturedEmails } from '../../store/simulatorControl.ts';
import { actorStateQuery, tenantActorWorkflowId } from '../../workflows/tenantActorMessages.ts';
import { startActorStack, type ActorStack } from '../support/actorStack.ts';
import { eventually } from '../support/eventually.ts';
import { uniqueSlug } from '../support/testService.ts';

/** How many more times each registry statement or provider step fails for good (this stack's task queue serves this file alone). */
const failuresLeft = new Map<string, number>();
const failing = (what: string) => {
  const left = failuresLeft.get(what) ?? 0;
  if (left === 0) return false;
  failuresLeft.set(what, left - 1);
  return true;
};

/** The failure kind injected into ensureOrganization per tenant slug, and its attempts per tenant id. */
const failureKinds = new Map<string, string>();
const calls = new Map<string, number>();

let stack: ActorStack;
beforeAll(async () => {
  stack = await startActorStack({
    // An activity that fails for good, as a local activity ended by the worker's own troubles while PostgreSQL was down.
    activities: (real) => ({
      ...real,
      loadTenantTimeline: async (tenantId: string) => {
        if (failing('loadTenantTimeline')) throw ApplicationFailure.nonRetryable('registry unreachable (injected)', 'store_down');
        return real.loadTenantTimeline(tenantId);
      },
      // A provider step's attempt ending in a failure the worker does not retry itself, as a local activity ended early.
      ensureOrganization: async (...args: Parameters<typeof real.ensureOrganization>) => {
        calls.set(args[0].tenantId, (calls.get(args[0].tenantId) ?? 0) + 1);
        const kind = failing(`ensureOrganization:${args[0].slug}`) ? failureKinds.get(args[0].slug) : undefined;
        if (kind) throw ApplicationFailure.nonRetryable(`provider failed (injected ${kind})`, kind);
        return real.ensureOrganization(...args);
      },
      recordProvisioningOutcome: async (...args: Parameters<typeof real.recordProvisioningOutcome>) => {
        if (failing('recordProvisioningOutcome')) throw ApplicationFailure.nonRetryable('registry unreachable (injected)', 'store_down');
        return real.recordProvisioningOutcome(...args);
      },
    }),
  });
});
afterAll(() => stack.close());

describe('the tenant actor and the registry it reads and records in', () => {
  it('outlasts registry statements that fail for good: the run goes on, provisions once and records the outcome once', async () => {
    const slug = uniqueSlug('outlast');
    const email = `admin@${slug}.example`;
    failuresLeft.set('loadTenantTimeline', 2);
    failuresLeft.set('recordProvisioningOutcome', 1);
    const res = await stack.service.request('POST', '/v1/tenants', { slug, name: `Tenant ${slug}`, admin_email: email });
    expect(res.status).toBe(201);
    const tenantId = res.body.tenant.id as string;

    const handle = stack.dispatcher.client.workflow.getHandle(tenantActorWorkflowId(tenantId));
    await eventually(async () => ((await handle.query(actorStateQuery)).provisioning === 'succeeded' ? true : undefined), 20_000, 'provisioning succeeded');
    const sent = await eventually(
      async () => ((await stack.service.request('GET', `/v1/audit?tenant_id=${tenantId}&action=idp.invite_sent`)).body.items as unknown[]).at(0),
      20_000,
      'idp.invite_sent',
    );
    expect(sent).toBeDefined();
    expect(failuresLeft.get('loadTenantTimeline')).toBe(0);
    expect(failuresLeft.get('recordProvisioningOutcome')).toBe(0);
    expect((await handle.describe()).status.name).toBe('RUNNING');
    expect(await capturedEmails(stack.service.orm, email)).toHaveLength(1);
    expect((await stack.service.request('GET', `/v1/audit?tenant_id=${tenantId}&action=idp.invite_sent`)).body.items).toHaveLength(1);
  });

  describe('provider steps (local activities, this stack retries 3 attempts, 100 ms doubling)', () => {
    const provision = async (slug: string, failures: number, kind: string) => {
      failuresLeft.set(`ensureOrganization:${slug}`, failures);
      failureKinds.set(slug, kind);
      const res = await stack.service.request('POST', '/v1/tenants', { slug, name: `Tenant ${slug}`, admin_email: `admin@${slug}.example` });
      expect(res.status).toBe(201);
      const tenantId = res.body.tenant.id as string;
      const handle = stack.dispatcher.client.workflow.getHandle(tenantActorWorkflowId(tenantId));
      const state = await eventually(async () => {
        const s = await handle.query(actorStateQuery);
        return s.provisioning === 'succeeded' || s.provisioning === 'failed' ? s : undefined;
      }, 20_000, 'provisioning ended');
      return { state, attempts: calls.get(tenantId) };
    };

    it('are retried by the actor when an attempt fails retryably, even if the worker would not retry it', async () => {
      const { state, attempts } = await provision(uniqueSlug('retried'), 2, 'unavailable');
      expect(state.provisioning).toBe('succeeded');
      expect(attempts).toBe(3);
    });

    it('fail after the policy\'s last attempt, not before and not after', async () => {
      const { state, attempts } = await provision(uniqueSlug('budget'), 3, 'unavailable');
      expect(state.provisioning).toBe('failed');
      expect(state.failure).toMatchObject({ kind: 'unavailable', step: 'organization' });
      expect(attempts).toBe(3);
    });

    it('fail at once on a kind that needs an operator', async () => {
      const { state, attempts } = await provision(uniqueSlug('final'), 1, 'organization_exists');
      expect(state.provisioning).toBe('failed');
      expect(state.failure).toMatchObject({ kind: 'organization_exists', step: 'organization' });
      expect(attempts).toBe(1);
    });
  });
});
