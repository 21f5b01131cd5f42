import { describe, expect, it } from 'vitest';
import { sendOperatorCommand } from '../../../domain/tenantActor/sendOperatorCommand.ts';
import type { OperatorCommand } from '../../../domain/tenantActor/tenantActorCommand.ts';
import { createTenant } from '../../../domain/tenants/createTenant.ts';
import { inMemoryRegistry } from '../../support/fakes/inMemoryRegistry.ts';

const meta = {};

describe('sendOperatorCommand', () => {
  it("delivers the command to the tenant's actor with the authenticated caller as the requester, the caller's own words as a note", async () => {
    const sent: [string, OperatorCommand][] = [];
    const registry = inMemoryRegistry({ tenantActorSignals: { signalOperator: async (tenantId, command) => (sent.push([tenantId, command]), `tenant-${tenantId}`) } });
    const { tenant } = await createTenant(registry, { slug: 'op', name: 'O', kind: 'customer', plan: 'standard' }, meta);
    const caller = { actorId: 'ops-console', actorType: 'service', recordedBy: 'ops-console' };
    const workflowId = await sendOperatorCommand(registry, tenant.id, 'resendInvite', 'mallory', caller);
    expect(workflowId).toBe(`tenant-${tenant.id}`);
    expect(sent).toEqual([[tenant.id, { kind: 'resendInvite', requested_by: 'ops-console', note: 'mallory', requested_via: 'api' }]]);
  });

  it('without an authenticated caller (authentication off) names no requester: what the caller says stays a note', async () => {
    const sent: OperatorCommand[] = [];
    const registry = inMemoryRegistry({ tenantActorSignals: { signalOperator: async (tenantId, command) => (sent.push(command), `tenant-${tenantId}`) } });
    const { tenant } = await createTenant(registry, { slug: 'anon', name: 'A', kind: 'customer', plan: 'standard' }, meta);
    await sendOperatorCommand(registry, tenant.id, 'retryProvisioning', 'mallory', { sourceIp: '127.0.0.1' });
    await sendOperatorCommand(registry, tenant.id, 'retryProvisioning', undefined, {});
    expect(sent).toEqual([
      { kind: 'retryProvisioning', note: 'mallory', requested_via: 'api' },
      { kind: 'retryProvisioning', requested_via: 'api' },
    ]);
  });

  it('an unknown tenant is not_found and nothing is sent', async () => {
    const sent: unknown[] = [];
    const registry = inMemoryRegistry({ tenantActorSignals: { signalOperator: async (...args) => (sent.push(args), '') } });
    await expect(sendOperatorCommand(registry, '00000000-0000-4000-8000-000000000000', 'retryProvisioning', undefined, meta)).rejects.toMatchObject({ code: 'not_found' });
    expect(sent).toEqual([]);
  });

  it('no workflow service, or one that cannot be reached, is unavailable: the caller may try again', async () => {
    const none = inMemoryRegistry();
    const { tenant } = await createTenant(none, { slug: 'none', name: 'N', kind: 'customer', plan: 'standard' }, meta);
    await expect(sendOperatorCommand(none, tenant.id, 'retryProvisioning', undefined, meta)).rejects.toMatchObject({ code: 'unavailable' });
    const down = inMemoryRegistry({ tenants: none.tenants, tenantActorSignals: { signalOperator: () => Promise.reject(new Error('14 UNAVAILABLE')) } });
    await expect(sendOperatorCommand(down, tenant.id, 'retryProvisioning', undefined, meta)).rejects.toMatchObject({
      code: 'unavailable',
      message: 'the workflow service is unreachable; try again',
    });
  });
});
