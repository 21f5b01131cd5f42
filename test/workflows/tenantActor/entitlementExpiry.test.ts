import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startActorStack, type ActorStack } from '../../support/actorStack.ts';
import { eventually } from '../../support/eventually.ts';
import { uniqueSlug } from '../../support/testService.ts';

let stack: ActorStack;
beforeAll(async () => {
  stack = await startActorStack();
});
afterAll(() => stack.close());

describe('an entitlement expiring while the service runs (real time, real Temporal dev server)', () => {
  it('is announced, leaves the claims and leaves the simulated provider user attributes within 5 seconds of its expiry', async () => {
    const slug = uniqueSlug('expiry');
    const email = `admin@${slug}.example`;
    const created = await stack.service.request('POST', '/v1/tenants', { slug, name: 'Expiring', admin_email: email });
    expect(created.body.invite_url).toBeTruthy();
    const tenantId = created.body.tenant.id as string;
    const expiresAt = new Date(Date.now() + 3_000);
    expect((await stack.service.request('PUT', `/v1/tenants/${tenantId}/entitlements/analytics`, { expires_at: expiresAt.toISOString() })).status).toBe(201);
    const attributes = async () =>
      ((await stack.service.orm.em.fork().execute<{ attributes: Record<string, string[]> }[]>('select attributes from idp_sim_users where email = ?', [email]))[0]!.attributes);
    await eventually(async () => (await attributes()).products?.includes('analytics'), 10_000, 'the product pushed');

    const expired = await eventually(
      async () => (await stack.service.request('GET', `/v1/audit?tenant_id=${tenantId}&action=entitlement.expired`)).body.items[0],
      15_000,
      'entitlement.expired',
    );
    expect(Date.parse(expired.created_at) - expiresAt.getTime()).toBeLessThan(5_000);
    expect(expired.metadata).toMatchObject({ product: 'analytics', expires_at: expiresAt.toISOString() });
    expect((await stack.service.request('POST', '/v1/internal/idp/claims', { tenant_id: tenantId })).body.products).toEqual([]);
    await eventually(async () => !(await attributes()).products?.includes('analytics'), 5_000, 'the product gone from the attributes');
  });
});
