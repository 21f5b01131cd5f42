import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApplicationFailure } from '@temporalio/activity';
import { capturedEmails, clearFaults, injectFault, listFaults, type FaultKind, type FaultStep } from '../../../store/simulatorControl.ts';
import { actorStateQuery, tenantActorWorkflowId } from '../../../workflows/tenantActor/tenantActorMessages.ts';
import { startActorStack, type ActorStack } from '../../support/actorStack.ts';
import { eventually } from '../../support/eventually.ts';
import { uniqueSlug } from '../../support/testService.ts';

/** How many more times each registry statement fails for good (this stack's task queue serves this file alone). */
const failuresLeft = new Map<string, number>();
const failing = (what: string) => {
  const left = failuresLeft.get(what) ?? 0;
  if (left === 0) return false;
  failuresLeft.set(what, left - 1);
  return true;
};

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
    // The timeline is read once the provisioning is done, its failures retried on the actor's durable timer.
    await eventually(async () => (failuresLeft.get('loadTenantTimeline') === 0 ? true : undefined), 20_000, 'the timeline read past its failures');
    await eventually(async () => ((await handle.query(actorStateQuery)).timeline ? true : undefined), 20_000, 'the timeline');
    expect(failuresLeft.get('recordProvisioningOutcome')).toBe(0);
    expect((await handle.describe()).status.name).toBe('RUNNING');
    expect(await capturedEmails(stack.service.orm, email)).toHaveLength(1);
    expect((await stack.service.request('GET', `/v1/audit?tenant_id=${tenantId}&action=idp.invite_sent`)).body.items).toHaveLength(1);
  });

  describe('provider steps (one local activity an attempt, this stack retries 3 attempts a step, 100 ms doubling)', () => {
    /** Creates a tenant whose provider steps meet `faults`, and answers how its provisioning ended and which faults are left. */
    const provision = async (slug: string, faults: Array<{ kind: FaultKind; step: FaultStep; times: number }>) => {
      for (const fault of faults) await injectFault(stack.service.orm, { ...fault, tenantSlug: slug });
      const res = await stack.service.request('POST', '/v1/tenants', { slug, name: `Tenant ${slug}`, admin_email: `admin@${slug}.example` });
      expect(res.status).toBe(201);
      const tenantId = res.body.tenant.id as string;
      const handle = stack.dispatcher.client.workflow.getHandle(tenantActorWorkflowId(tenantId));
      const state = await eventually(async () => {
        const s = await handle.query(actorStateQuery);
        return s.provisioning === 'succeeded' || s.provisioning === 'failed' ? s : undefined;
      }, 20_000, 'provisioning ended');
      const left = (await listFaults(stack.service.orm)).filter((f) => f.tenantSlug === slug).map((f) => ({ step: f.step, remaining: f.remaining }));
      await clearFaults(stack.service.orm, { tenantSlug: slug });
      return { state, left };
    };

    it('are retried by the actor when an attempt fails retryably', async () => {
      // Two failures then a success: three attempts, the whole budget of the step.
      const { state, left } = await provision(uniqueSlug('retried'), [{ kind: 'unavailable', step: 'organization', times: 2 }]);
      expect(state.provisioning).toBe('succeeded');
      expect(left).toEqual([]);
    });

    it("fail after the policy's last attempt, not before and not after", async () => {
      // Failed with the fault used up: exactly three attempts (a fourth would have succeeded).
      const { state, left } = await provision(uniqueSlug('budget'), [{ kind: 'unavailable', step: 'organization', times: 3 }]);
      expect(state.provisioning).toBe('failed');
      expect(state.failure).toMatchObject({ kind: 'unavailable', step: 'organization' });
      expect(left).toEqual([]);
    });

    it('fail at once on a kind that needs an operator', async () => {
      const { state, left } = await provision(uniqueSlug('final'), [{ kind: 'organization_exists', step: 'organization', times: 2 }]);
      expect(state.provisioning).toBe('failed');
      expect(state.failure).toMatchObject({ kind: 'organization_exists', step: 'organization' });
      expect(left).toEqual([{ step: 'organization', remaining: 1 }]);
    });

    it('count the budget per step: an attempt that gets further starts the next step with the whole budget', async () => {
      // Two failures at each of two steps: six attempts in all, never three at one step.
      const { state, left } = await provision(uniqueSlug('per-step'), [
        { kind: 'unavailable', step: 'organization', times: 2 },
        { kind: 'unavailable', step: 'membership', times: 2 },
      ]);
      expect(state.provisioning).toBe('succeeded');
      expect(left).toEqual([]);
    });

    it('report the step that used up its budget, with the ids of the steps before it', async () => {
      const { state } = await provision(uniqueSlug('at-user'), [{ kind: 'unavailable', step: 'user', times: 3 }]);
      expect(state.provisioning).toBe('failed');
      expect(state.failure).toMatchObject({ kind: 'unavailable', step: 'user' });
      expect(state.organizationId).toEqual(expect.any(String));
      expect(state.userId).toBeUndefined();
    });
  });
});
