import { describe, expect, it } from 'vitest';
import { sendOperatorCommand } from '../../../domain/tenantActor/sendOperatorCommand.ts';
import type { OperatorCommand } from '../../../domain/tenantActor/tenantActorCommand.ts';
import { createTenant } from '../../../domain/tenants/createTenant.ts';
import { inMemoryRegistry } from '../../support/fakes/inMemoryRegistry.ts';

const meta = {};

describe('sendOperatorCommand', () => {
  it("delivers the command with who asked to the tenant's actor and answers its workflow id", async () => {
    const sent: [string, OperatorCommand][] = [];
    const registry = inMemoryRegistry({ tenantActorSignals: { signalOperator: async (tenantId, command) => (sent.push([tenantId, command]), `tenant-${tenantId}`) } });
    const { tenant } = await createTenant(registry, { slug: 'op', name: 'O', kind: 'customer', plan: 'standard' }, meta);
    const workflowId = await sendOperatorCommand(registry, tenant.id, { kind: 'resendInvite', requestedBy: 'ops-console' });
    expect(workflowId).toBe(`tenant-${tenant.id}`);
    expect(sent).toEqual([[tenant.id, { kind: 'resendInvite', requestedBy: 'ops-console' }]]);
  });

  it('an unknown tenant is not_found and nothing is sent', async () => {
    const sent: unknown[] = [];
    const registry = inMemoryRegistry({ tenantActorSignals: { signalOperator: async (...args) => (sent.push(args), '') } });
    await expect(sendOperatorCommand(registry, '00000000-0000-4000-8000-000000000000', { kind: 'retryProvisioning' })).rejects.toMatchObject({ code: 'not_found' });
    expect(sent).toEqual([]);
  });

  it('no workflow service, or one that cannot be reached, is unavailable: the caller may try again', async () => {
    const none = inMemoryRegistry();
    const { tenant } = await createTenant(none, { slug: 'none', name: 'N', kind: 'customer', plan: 'standard' }, meta);
    await expect(sendOperatorCommand(none, tenant.id, { kind: 'retryProvisioning' })).rejects.toMatchObject({ code: 'unavailable' });
    const down = inMemoryRegistry({ tenants: none.tenants, tenantActorSignals: { signalOperator: () => Promise.reject(new Error('14 UNAVAILABLE')) } });
    await expect(sendOperatorCommand(down, tenant.id, { kind: 'retryProvisioning' })).rejects.toMatchObject({
      code: 'unavailable',
      message: 'the workflow service is unreachable; try again',
    });
  });
});
