import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, uniqueSlug, type TestService } from '../support/testService.ts';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.close());

describe('POST /v1/tenants', () => {
  it('creates a customer tenant in trial for 14 days with plan starter by default', async () => {
    const slug = uniqueSlug('acme');
    const res = await service.request('POST', '/v1/tenants', { slug, name: 'Acme' });
    expect(res.status).toBe(201);
    expect(res.body.tenant).toMatchObject({ slug, name: 'Acme', kind: 'customer', status: 'trial', plan: 'starter' });
    const days = (Date.parse(res.body.tenant.trial_ends_at) - Date.parse(res.body.tenant.created_at)) / 86_400_000;
    expect(days).toBe(14);
    expect(res.body.invite_url).toBeUndefined();
  });
});
