import { describe, expect, it } from 'vitest';
import { startTrial } from '../../../domain/catalog/startTrial.ts';
import { putEntitlement } from '../../../domain/entitlements/putEntitlement.ts';
import { revokeEntitlement } from '../../../domain/entitlements/revokeEntitlement.ts';
import { archiveTenant } from '../../../domain/tenants/archiveTenant.ts';
import { changeTenantStatus } from '../../../domain/tenants/changeTenantStatus.ts';
import { createTenant } from '../../../domain/tenants/createTenant.ts';
import { updateTenant } from '../../../domain/tenants/updateTenant.ts';
import { inMemoryRegistry, type InMemoryRegistry } from '../../support/fakes/inMemoryRegistry.ts';

const meta = {};
const DAY = 24 * 3600_000;

/** A tenant in trial, its creation's effects cleared so a test sees only those of the change it makes. */
async function tenantOf(registry: InMemoryRegistry, extra: Record<string, unknown> = {}): Promise<string> {
  const { tenant } = await createTenant(registry, { slug: `t-${registry.tenants.tenants.size}`, name: 'T', kind: 'customer', plan: 'standard', ...extra }, meta);
  registry.effects.followed.length = 0;
  registry.effects.provisioned.length = 0;
  return tenant.id;
}

/** The claims pushes this change wrote to the outbox in its own transaction. */
const pushesWritten = (registry: InMemoryRegistry, since: number) => registry.tenants.outbox.slice(since).filter((q) => q.command.kind === 'pushClaims');

/** Each change that alters what a tenant's token says, made through its service on a fresh tenant. */
const claimsChanges: [string, (registry: InMemoryRegistry, id: string) => Promise<unknown>][] = [
  ['activation', (r, id) => changeTenantStatus(r, id, { kind: 'activate', body: {} }, meta)],
  ['cancellation', (r, id) => changeTenantStatus(r, id, { kind: 'cancel', body: {} }, meta)],
  ['archiving', (r, id) => archiveTenant(r, id, {}, meta)],
  ['a new plan', (r, id) => updateTenant(r, id, { plan: 'enterprise' }, meta)],
  ['a new trial end', (r, id) => updateTenant(r, id, { trial_ends_at: new Date(Date.now() + 30 * DAY).toISOString() }, meta)],
  ['an entitlement granted', (r, id) => putEntitlement(r, id, 'analytics', {}, meta)],
  ['a trial started', (r, id) => startTrial(r, { tenant_id: id, product: 'analytics' }, meta)],
];

describe('a change that alters claims', () => {
  it.each(claimsChanges)('%s writes the claims push in its transaction and hands exactly that push to the actor', async (_name, change) => {
    const registry = inMemoryRegistry();
    const id = await tenantOf(registry);
    const before = registry.tenants.outbox.length;
    await change(registry, id);
    const written = pushesWritten(registry, before);
    expect(written).toEqual([{ id: expect.any(Number), tenantId: id, command: { kind: 'pushClaims' } }]);
    expect(registry.effects.handOffs).toEqual(written);
  });

  it.each(claimsChanges)('%s makes this replica forget the tenant at once', async (_name, change) => {
    const registry = inMemoryRegistry();
    const id = await tenantOf(registry);
    await change(registry, id);
    expect(registry.effects.staleTenants).toEqual([id]);
  });

  it("revoking a current entitlement pushes; revoking a disabled one pushes nothing but still drops the tenant's cached snapshot", async () => {
    const registry = inMemoryRegistry();
    const id = await tenantOf(registry);
    await putEntitlement(registry, id, 'analytics', {}, meta);
    await putEntitlement(registry, id, 'sso', { enabled: false }, meta);
    registry.effects.followed.length = 0;
    const before = registry.tenants.outbox.length;
    await revokeEntitlement(registry, id, 'analytics', meta);
    expect(pushesWritten(registry, before)).toHaveLength(1);
    await revokeEntitlement(registry, id, 'sso', meta);
    expect(pushesWritten(registry, before)).toHaveLength(1);
    expect(registry.effects.handOffs).toHaveLength(1);
    expect(registry.effects.staleTenants).toEqual([id, id]);
  });
});

describe('a change that leaves claims as they were', () => {
  it('a new name writes no push and hands nothing to the actor', async () => {
    const registry = inMemoryRegistry();
    const id = await tenantOf(registry);
    const before = registry.tenants.outbox.length;
    await updateTenant(registry, id, { name: 'Renamed' }, meta);
    expect(registry.tenants.outbox.length).toBe(before);
    expect(registry.effects.handOffs).toEqual([]);
  });

  it('a refused change (archiving an archived tenant) writes nothing and has no effect', async () => {
    const registry = inMemoryRegistry();
    const id = await tenantOf(registry);
    await archiveTenant(registry, id, {}, meta);
    registry.effects.followed.length = 0;
    const before = registry.tenants.outbox.length;
    await expect(archiveTenant(registry, id, {}, meta)).rejects.toMatchObject({ code: 'conflict' });
    expect(registry.tenants.outbox.length).toBe(before);
    expect(registry.effects.followed).toEqual([]);
  });
});

describe('a new tenant', () => {
  it('with admin_email: the provisioning hand-off is written with the tenant, and the creation waits for its invite link', async () => {
    const registry = inMemoryRegistry();
    registry.effects.inviteUrl = 'https://idp.example/invite/1';
    const { tenant, inviteUrl } = await createTenant(registry, { slug: 'with-admin', name: 'A', kind: 'customer', plan: 'standard', admin_email: 'a@acme.example' }, meta);
    expect(registry.tenants.outbox).toEqual([{ id: 1, tenantId: tenant.id, command: { kind: 'provision' } }]);
    expect(registry.effects.provisioned).toEqual(registry.tenants.outbox);
    expect(registry.effects.handOffs).toEqual([]);
    expect(inviteUrl).toBe('https://idp.example/invite/1');
  });

  it('with admin_email whose wait runs out: answered without a link, the hand-off stays written for the relay', async () => {
    const registry = inMemoryRegistry();
    const created = await createTenant(registry, { slug: 'slow', name: 'S', kind: 'customer', plan: 'standard', admin_email: 's@acme.example' }, meta);
    expect(created).not.toHaveProperty('inviteUrl');
    expect(registry.tenants.outbox).toHaveLength(1);
  });

  it('without admin_email: a claims push starts its actor (and with it the trial timers), not waited for', async () => {
    const registry = inMemoryRegistry();
    const { tenant } = await createTenant(registry, { slug: 'no-admin', name: 'N', kind: 'customer', plan: 'standard' }, meta);
    expect(registry.tenants.outbox).toEqual([{ id: 1, tenantId: tenant.id, command: { kind: 'pushClaims' } }]);
    expect(registry.effects.handOffs).toEqual(registry.tenants.outbox);
    expect(registry.effects.provisioned).toEqual([]);
  });

  it('a taken slug writes no hand-off and has no effect', async () => {
    const registry = inMemoryRegistry();
    await tenantOf(registry, { slug: 'taken' });
    await expect(createTenant(registry, { slug: 'taken', name: 'T', kind: 'customer', plan: 'standard', admin_email: 'x@acme.example' }, meta)).rejects.toMatchObject({
      code: 'conflict',
    });
    expect(registry.tenants.outbox).toHaveLength(1);
    expect(registry.effects.followed).toEqual([]);
    expect(registry.effects.provisioned).toEqual([]);
  });
});
