import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PostgresTenantRepository, isoWithMicroseconds } from '../../store/postgresTenantRepository.ts';
import { nativePool } from '../../store/nativePool.ts';
import { startTestService, uniqueSlug, type TestService } from '../support/testService.ts';

const statementNames = (calls: unknown[][]) => calls.map(([statement]) => (typeof statement === 'string' ? statement : (statement as { name: string }).name));

describe("isoWithMicroseconds: the listing cursor's position from PostgreSQL's text of a UTC timestamp", () => {
  it('keeps every microsecond and pads the fraction PostgreSQL cut after its last non-zero digit', () => {
    expect(isoWithMicroseconds('2026-11-23 23:35:03.550123')).toBe('2026-11-23T23:35:03.550123Z');
    expect(isoWithMicroseconds('2026-11-23 23:35:03.5501')).toBe('2026-11-23T23:35:03.550100Z');
    expect(isoWithMicroseconds('2026-01-02 03:04:05.000001')).toBe('2026-01-02T03:04:05.000001Z');
  });

  it('gives a whole second, which PostgreSQL writes without a fraction, six zeros', () => {
    expect(isoWithMicroseconds('2026-11-23 23:35:03')).toBe('2026-11-23T23:35:03.000000Z');
  });
});

describe('PostgresTenantRepository.snapshot', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(() => service.close());

  it('tenants asked for together, by id or by slug, are read in one statement per kind; an unknown or malformed one is nothing', async () => {
    const made = [];
    for (const stem of ['snap-a', 'snap-b']) made.push((await service.request('POST', '/v1/tenants', { slug: uniqueSlug(stem), name: stem })).body.tenant);
    await service.request('PUT', `/v1/tenants/${made[1].id}/entitlements/analytics`, { enabled: true });
    const repository = new PostgresTenantRepository(service.orm);
    const sent = vi.spyOn(await nativePool(service.orm), 'query');
    try {
      const found = await Promise.all([
        repository.snapshot({ by: 'id', id: made[0].id }),
        repository.snapshot({ by: 'slug', slug: made[1].slug }),
        repository.snapshot({ by: 'id', id: made[1].id }),
        repository.snapshot({ by: 'id', id: randomUUID() }),
        repository.snapshot({ by: 'id', id: 'not-a-uuid' }),
        repository.snapshot({ by: 'slug', slug: uniqueSlug('never') }),
      ]);
      expect(found.map((tenant) => tenant && [tenant.id, tenant.slug, tenant.entitlements.map((e) => e.product)])).toEqual([
        [made[0].id, made[0].slug, []],
        [made[1].id, made[1].slug, ['analytics']],
        [made[1].id, made[1].slug, ['analytics']],
        undefined,
        undefined,
        undefined,
      ]);
      expect(statementNames(sent.mock.calls).sort()).toEqual(['tenant_snapshots_by_ids', 'tenant_snapshots_by_slugs']);
    } finally {
      sent.mockRestore();
    }
  });
});
