import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestService, uniqueSlug, type TestService } from '../support/testService.ts';
import { PostgresApiKeyRepository } from '../../store/postgresApiKeyRepository.ts';
import { nativePool } from '../../store/nativePool.ts';
import { generateApiKey, parseApiKey } from '../../domain/apiKeyFormat.ts';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.close());

const statementNames = (calls: unknown[][]) => calls.map(([statement]) => (typeof statement === 'string' ? statement : (statement as { name: string }).name));

describe('PostgresApiKeyRepository.findVerifiable', () => {
  it("keys asked for together are read in one statement, each answered with its own key and its tenant's status, an unknown prefix with nothing", async () => {
    const tenants = [];
    for (const stem of ['verify-a', 'verify-b']) tenants.push((await service.request('POST', '/v1/tenants', { slug: uniqueSlug(stem), name: stem })).body.tenant);
    const made = [];
    for (const tenant of [tenants[0], tenants[1], tenants[1]]) made.push((await service.request('POST', '/v1/api-keys', { tenant_id: tenant.id, name: 'ci', scopes: ['read'] })).body);
    await service.request('POST', `/v1/tenants/${tenants[1].id}/activate`);
    const status = (await service.request('GET', `/v1/tenants/${tenants[1].id}`)).body.status;
    expect(status).not.toBe(tenants[0].status);
    const repository = new PostgresApiKeyRepository(service.orm);
    const sent = vi.spyOn(await nativePool(service.orm), 'query');
    try {
      const prefixes = [...made.map((key) => parseApiKey(key.plaintext)!.prefix), generateApiKey().prefix];
      const found = await Promise.all(prefixes.map((prefix) => repository.findVerifiable(prefix)));
      expect(found.map((answer) => answer && [answer.key.id, answer.key.tenantId, answer.tenantStatus])).toEqual([
        [made[0].api_key.id, tenants[0].id, tenants[0].status],
        [made[1].api_key.id, tenants[1].id, status],
        [made[2].api_key.id, tenants[1].id, status],
        undefined,
      ]);
      expect(statementNames(sent.mock.calls)).toEqual(['api_keys_by_prefixes']);
    } finally {
      sent.mockRestore();
    }
  });
});
