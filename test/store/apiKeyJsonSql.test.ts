import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { ApiKeyRecord } from '../../domain/apiKeys/apiKeyRecord.ts';
import { toApiKey } from '../../domain/apiKeys/apiKeyResponse.ts';
import { AWKWARD_TEXT } from '../support/awkwardText.ts';
import { openOrm, type Orm } from '../../store/orm.ts';
import { PostgresApiKeyRepository } from '../../store/postgresApiKeyRepository.ts';

let orm: Orm;
let keys: PostgresApiKeyRepository;
beforeAll(async () => {
  orm = await openOrm(inject('runtimeDatabaseUrl'), 1);
  keys = new PostgresApiKeyRepository(orm);
});
afterAll(() => orm.close());


describe('API_KEY_JSON_SQL: the API keys listing built by PostgreSQL', () => {
  it("writes every key as JSON.stringify(toApiKey(record)) writes it: nulls, empty scopes, omitted empty product and creator, cut microseconds; a tenant without keys lists none, an unknown one is undefined", async () => {
    const tenantId = randomUUID();
    const empty = randomUUID();
    const em = orm.em.fork();
    for (const id of [tenantId, empty]) {
      await em.execute(`insert into tenants (id, slug, name, status, kind, plan, created_at, updated_at) values (?, ?, 'Keys', 'active', 'customer', 'p', now(), now())`, [id, `keys-json-${id.slice(0, 8)}`]);
    }
    const first = randomUUID();
    const records: ApiKeyRecord[] = [
      {
        id: first, tenantId, product: null, name: AWKWARD_TEXT, scopes: [], prefix: `tr_${first.slice(0, 8)}`, createdBy: null, lastUsedAt: null, revokedAt: null, expiresAt: null,
        rotatedFrom: null, createdAt: new Date('2026-01-02T03:04:05.999Z'),
      } as unknown as ApiKeyRecord,
    ];
    const second = randomUUID();
    records.push({
      id: second, tenantId, product: 'analytics', name: 'all set', scopes: ['read', AWKWARD_TEXT], prefix: `tr_${second.slice(0, 8)}`, createdBy: AWKWARD_TEXT,
      lastUsedAt: new Date('2026-11-27T00:00:00.000Z'), revokedAt: new Date('2026-11-27T00:00:01.500Z'), expiresAt: new Date('2027-01-01T00:00:00.000Z'),
      rotatedFrom: first, createdAt: new Date('2026-06-30T12:00:00.123Z'),
    } as unknown as ApiKeyRecord);
    const third = randomUUID();
    records.push({ ...records[0]!, id: third, product: '', createdBy: '', name: 'empty texts', prefix: `tr_${third.slice(0, 8)}`, createdAt: new Date('2026-03-01T00:00:00.000Z') } as ApiKeyRecord);
    // Stored with microseconds the API cuts: .999999 is still .999.
    const stored = (date: Date | null) => (date === null ? null : date.toISOString().replace('Z', '999Z'));
    for (const r of records as unknown as Record<string, unknown>[]) {
      await em.execute(
        `insert into api_keys (id, tenant_id, product, name, scopes, prefix, key_hash, created_by, last_used_at, revoked_at, expires_at, rotated_from, created_at)
         values (?, ?, ?, ?, array(select jsonb_array_elements_text(?::jsonb)), ?, ?, ?, ?, ?, ?, ?, ?)`,
        [r.id, r.tenantId, r.product, r.name, JSON.stringify(r.scopes), r.prefix, Buffer.alloc(32), r.createdBy, stored(r.lastUsedAt as Date | null), stored(r.revokedAt as Date | null), stored(r.expiresAt as Date | null), r.rotatedFrom, stored(r.createdAt as Date)],
      );
    }
    const newestFirst = [...records].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
    expect(await keys.listOfTenant(tenantId)).toEqual(newestFirst.map((r) => JSON.stringify(toApiKey(r))));
    expect(await keys.listOfTenant(empty)).toEqual([]);
    expect(await keys.listOfTenant(randomUUID())).toBeUndefined();
  });
});
