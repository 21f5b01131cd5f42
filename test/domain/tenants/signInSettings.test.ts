import { describe, expect, it } from 'vitest';
import { createTenant } from '../../../domain/tenants/createTenant.ts';
import { updateTenant } from '../../../domain/tenants/updateTenant.ts';
import { inMemoryRegistry } from '../../support/fakes/inMemoryRegistry.ts';

const meta = {};

describe("updateTenant's settings.sign_in (SPEC-EXTENSIONS §15)", () => {
  it('merges the fields given into the stored policy, null removing session_max_hours, and hands the actor a push for each change', async () => {
    const registry = inMemoryRegistry();
    const { tenants } = registry;
    const { tenant } = await createTenant(registry, { slug: 'policy', name: 'P', kind: 'customer', plan: 'standard' }, meta);
    const pushes = () => tenants.outbox.filter((entry) => entry.tenantId === tenant.id && entry.command.kind === 'pushClaims').length;
    const before = pushes();

    await updateTenant(registry, tenant.id, { settings: { sign_in: { require_sso: true, session_max_hours: 8 } } }, meta);
    await updateTenant(registry, tenant.id, { settings: { sign_in: { mfa: 'required' } } }, meta);
    expect((await tenants.find({ by: 'id', id: tenant.id }))!.settings.sign_in).toEqual({ require_sso: true, session_max_hours: 8, mfa: 'required' });
    await updateTenant(registry, tenant.id, { settings: { sign_in: { session_max_hours: null } } }, meta);
    expect((await tenants.find({ by: 'id', id: tenant.id }))!.settings.sign_in).toEqual({ require_sso: true, mfa: 'required' });
    expect(pushes()).toBe(before + 3);
  });

  it('pushes nothing for a change of the other settings, nor for a sign-in policy given as it already is', async () => {
    const registry = inMemoryRegistry();
    const { tenants } = registry;
    const { tenant } = await createTenant(registry, { slug: 'quiet', name: 'Q', kind: 'customer', plan: 'standard' }, meta);
    const pushes = () => tenants.outbox.filter((entry) => entry.tenantId === tenant.id && entry.command.kind === 'pushClaims').length;
    const before = pushes();
    await updateTenant(registry, tenant.id, { settings: { invitation_expiry_days: 3 } }, meta);
    await updateTenant(registry, tenant.id, { settings: { sign_in: { mfa: 'off' } } }, meta);
    expect(pushes()).toBe(before);
  });
});
