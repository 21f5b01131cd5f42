import { createHash, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestService, uniqueSlug, type TestService } from '../support/testService.ts';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.close());

async function createTenant(kind = 'customer') {
  const res = await service.request('POST', '/v1/tenants', { slug: uniqueSlug('key'), name: 'Key tenant', kind });
  expect(res.status).toBe(201);
  return res.body.tenant as { id: string; slug: string };
}

async function createKey(tenantId: string, extra: Record<string, unknown> = {}) {
  const res = await service.request('POST', '/v1/api-keys', { tenant_id: tenantId, name: 'ci', ...extra });
  expect(res.status).toBe(201);
  return res.body as { api_key: Record<string, any>; plaintext: string; warning: string };
}

const verify = (body: unknown, headers?: Record<string, string>) =>
  service.request('POST', '/v1/internal/api-keys/verify', body, headers);

async function keyRow(id: string) {
  const rows = await service.orm.em.fork().execute<Record<string, any>[]>('select * from api_keys where id = ?', [id]);
  return rows[0]!;
}

/** Changes one character of the secret part to another valid character, keeping the format. */
function mistype(plaintext: string): string {
  const i = plaintext.length - 20;
  const replacement = plaintext[i] === 'A' ? 'B' : 'A';
  return plaintext.slice(0, i) + replacement + plaintext.slice(i + 1);
}

describe('POST /v1/api-keys', () => {
  it('returns the key record, the plaintext once and a warning', async () => {
    const tenant = await createTenant();
    const res = await service.request('POST', '/v1/api-keys', {
      tenant_id: tenant.id,
      name: 'billing export',
      product: 'api-access',
      scopes: ['read', 'write'],
      created_by: 'ops@example.com',
    });
    expect(res.status).toBe(201);
    expect(res.body.api_key).toMatchObject({
      tenant_id: tenant.id,
      name: 'billing export',
      product: 'api-access',
      scopes: ['read', 'write'],
      created_by: 'ops@example.com',
      last_used_at: null,
      revoked_at: null,
    });
    expect(typeof res.body.plaintext).toBe('string');
    expect(res.body.plaintext.startsWith(`${res.body.api_key.prefix}_`)).toBe(true);
    expect(res.body.warning).toMatch(/only once/i);
    expect(JSON.stringify(res.body.api_key)).not.toContain(res.body.plaintext);
  });

  it('a name of 100 characters is accepted and one of 101 answers 400', async () => {
    const tenant = await createTenant();
    expect((await service.request('POST', '/v1/api-keys', { tenant_id: tenant.id, name: 'n'.repeat(100) })).status).toBe(201);
    const res = await service.request('POST', '/v1/api-keys', { tenant_id: tenant.id, name: 'n'.repeat(101) });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_input');
  });

  it('a missing name or tenant_id answers 400', async () => {
    const tenant = await createTenant();
    expect((await service.request('POST', '/v1/api-keys', { tenant_id: tenant.id })).status).toBe(400);
    expect((await service.request('POST', '/v1/api-keys', { name: 'x' })).status).toBe(400);
    expect((await service.request('POST', '/v1/api-keys', { tenant_id: 'nope', name: 'x' })).status).toBe(400);
  });

  it('an unknown tenant answers 404', async () => {
    const res = await service.request('POST', '/v1/api-keys', { tenant_id: randomUUID(), name: 'x' });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('not_found');
  });

  it('appends api_key.created with the request user_agent and without the plaintext', async () => {
    const tenant = await createTenant();
    const userAgent = `key-test/${randomUUID()}`;
    const res = await service.request('POST', '/v1/api-keys', { tenant_id: tenant.id, name: 'audited' }, { 'user-agent': userAgent });
    expect(res.status).toBe(201);
    const audit = await service.request('GET', `/v1/audit?tenant_id=${tenant.id}&action=api_key.created`);
    expect(audit.body.items).toHaveLength(1);
    expect(audit.body.items[0]).toMatchObject({ target_id: res.body.api_key.id, user_agent: userAgent });
    expect(JSON.stringify(audit.body)).not.toContain(res.body.plaintext);
  });

  it('only a hash of the key is stored: the plaintext and its secret appear nowhere in the row', async () => {
    const tenant = await createTenant();
    const { api_key, plaintext } = await createKey(tenant.id);
    const row = await keyRow(api_key.id);
    const secret = plaintext.slice(api_key.prefix.length + 1, -8);
    const stored = Object.values(row)
      .map((v) => (Buffer.isBuffer(v) ? `${v.toString('utf8')} ${v.toString('hex')} ${v.toString('base64')}` : JSON.stringify(v)))
      .join(' ');
    expect(stored).not.toContain(plaintext);
    expect(stored).not.toContain(secret);
    expect(Buffer.isBuffer(row.key_hash)).toBe(true);
    expect((row.key_hash as Buffer).equals(createHash('sha256').update(plaintext).digest())).toBe(true);
  });
});

describe('GET /v1/api-keys', () => {
  it('lists the tenant keys without plaintext or hash', async () => {
    const tenant = await createTenant();
    const a = await createKey(tenant.id, { name: 'a' });
    const b = await createKey(tenant.id, { name: 'b' });
    const res = await service.request('GET', `/v1/api-keys?tenant_id=${tenant.id}`);
    expect(res.status).toBe(200);
    expect(res.body.items.map((k: any) => k.id).sort()).toEqual([a.api_key.id, b.api_key.id].sort());
    const text = JSON.stringify(res.body);
    for (const plaintext of [a.plaintext, b.plaintext]) expect(text).not.toContain(plaintext);
    for (const item of res.body.items) {
      expect(Object.keys(item).filter((k) => /hash|plaintext|secret/i.test(k))).toEqual([]);
    }
  });

  it('does not list keys of other tenants', async () => {
    const mine = await createTenant();
    const other = await createTenant();
    await createKey(other.id);
    const res = await service.request('GET', `/v1/api-keys?tenant_id=${mine.id}`);
    expect(res.body.items).toEqual([]);
  });

  it('a missing or malformed tenant_id answers 400', async () => {
    expect((await service.request('GET', '/v1/api-keys')).status).toBe(400);
    expect((await service.request('GET', '/v1/api-keys?tenant_id=x')).status).toBe(400);
  });

  it('an unknown tenant answers 404', async () => {
    const res = await service.request('GET', `/v1/api-keys?tenant_id=${randomUUID()}`);
    expect(res.status).toBe(404);
  });
});

describe('DELETE /v1/api-keys/{id}', () => {
  it('revokes with 204 and sets revoked_at', async () => {
    const tenant = await createTenant();
    const { api_key } = await createKey(tenant.id);
    const res = await service.request('DELETE', `/v1/api-keys/${api_key.id}`);
    expect(res.status).toBe(204);
    expect(res.body).toBeUndefined();
    const listed = (await service.request('GET', `/v1/api-keys?tenant_id=${tenant.id}`)).body.items[0];
    expect(Number.isNaN(Date.parse(listed.revoked_at))).toBe(false);
  });

  it('a second revoke answers 204 and keeps the first revoked_at', async () => {
    const tenant = await createTenant();
    const { api_key } = await createKey(tenant.id);
    expect((await service.request('DELETE', `/v1/api-keys/${api_key.id}`)).status).toBe(204);
    const first = (await keyRow(api_key.id)).revoked_at;
    expect(first).not.toBeNull();
    expect((await service.request('DELETE', `/v1/api-keys/${api_key.id}`)).status).toBe(204);
    expect((await keyRow(api_key.id)).revoked_at).toEqual(first);
    const audit = await service.request('GET', `/v1/audit?tenant_id=${tenant.id}&action=api_key.revoked`);
    expect(audit.body.items).toHaveLength(1);
  });

  it('an unknown id answers 404', async () => {
    const res = await service.request('DELETE', `/v1/api-keys/${randomUUID()}`);
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('not_found');
  });

  it('a malformed id answers 400', async () => {
    const res = await service.request('DELETE', '/v1/api-keys/not-a-uuid');
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_input');
  });
});

describe('POST /v1/internal/api-keys/verify', () => {
  it('a valid key answers 200 valid=true, code VALID, with key_id, tenant_id, product, scopes and expires_at', async () => {
    const tenant = await createTenant();
    const { api_key, plaintext } = await createKey(tenant.id, { product: 'api-access', scopes: ['read'] });
    const res = await verify({ key: plaintext });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ valid: true, code: 'VALID', key_id: api_key.id, tenant_id: tenant.id, product: 'api-access', scopes: ['read'], expires_at: null });
  });

  it('a revoked key answers 200 valid=false with code REVOKED', async () => {
    const tenant = await createTenant();
    const { api_key, plaintext } = await createKey(tenant.id);
    expect((await verify({ key: plaintext })).body.valid).toBe(true);
    expect((await service.request('DELETE', `/v1/api-keys/${api_key.id}`)).status).toBe(204);
    const res = await verify({ key: plaintext });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ valid: false, code: 'REVOKED' });
  });

  it('a revoked key answers valid=false even though its verification was cached, on the replica that revoked it at once', async () => {
    const tenant = await createTenant();
    const { api_key, plaintext } = await createKey(tenant.id);
    expect((await verify({ key: plaintext })).body.valid).toBe(true);
    expect((await verify({ key: plaintext })).body.valid).toBe(true);
    // The key now sits in the registry cache, which would keep answering valid for CACHE_TTL_SECONDS on its own.
    expect(service.deps.cache?.apiKey(api_key.prefix)).toMatchObject({ id: api_key.id, revoked: false });
    expect((await service.request('DELETE', `/v1/api-keys/${api_key.id}`)).status).toBe(204);
    expect((await verify({ key: plaintext })).body).toEqual({ valid: false, code: 'REVOKED' });
  });

  it('a key with one character changed answers 200 valid=false with code NOT_FOUND', async () => {
    const tenant = await createTenant();
    const { plaintext } = await createKey(tenant.id);
    const res = await verify({ key: mistype(plaintext) });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ valid: false, code: 'NOT_FOUND' });
  });

  it('a well-formed key with a valid checksum that was never issued answers valid=false with code NOT_FOUND', async () => {
    const { generateApiKey } = await import('../../domain/apiKeyFormat.ts');
    const res = await verify({ key: generateApiKey().plaintext });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ valid: false, code: 'NOT_FOUND' });
  });

  it('the key of a frozen tenant answers valid=false with code TENANT_INACTIVE', async () => {
    const tenant = await createTenant();
    const { plaintext } = await createKey(tenant.id);
    expect((await verify({ key: plaintext })).body.valid).toBe(true);
    expect((await service.request('POST', `/v1/tenants/${tenant.id}/cancel`)).status).toBe(200);
    const res = await verify({ key: plaintext });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ valid: false, code: 'TENANT_INACTIVE' });
  });

  it.each([
    ['garbage', { key: 'hello' }],
    ['an empty key', { key: '' }],
    ['a missing key', {}],
    ['a numeric key', { key: 12345 }],
    ['an object key', { key: { nested: true } }],
    ['a JSON array body', [1, 2]],
    ['a JSON null body', 'null'],
    ['a JSON string body', '"trk_x"'],
    ['a non-JSON body', '{not json'],
  ])('%s answers 200 valid=false with code NOT_FOUND, never 4xx', async (_label, body) => {
    const res = await verify(body);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ valid: false, code: 'NOT_FOUND' });
  });

  it('a wrong content type answers 200 valid=false', async () => {
    const tenant = await createTenant();
    const { plaintext } = await createKey(tenant.id);
    const res = await verify(JSON.stringify({ key: plaintext }), { 'content-type': 'text/plain' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ valid: false, code: 'NOT_FOUND' });
  });

  it('no body at all answers 200 valid=false', async () => {
    const res = await verify(undefined);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ valid: false, code: 'NOT_FOUND' });
  });

  it('a body over the size limit answers 200 valid=false', async () => {
    const res = await verify({ key: 'x'.repeat(service.deps.settings.BODY_LIMIT_BYTES + 10) });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ valid: false, code: 'NOT_FOUND' });
  });

  it('sets last_used_at after the first verify and does not rewrite it on an immediate second verify', async () => {
    const tenant = await createTenant();
    const { api_key, plaintext } = await createKey(tenant.id);
    expect((await keyRow(api_key.id)).last_used_at).toBeNull();

    expect((await verify({ key: plaintext })).body.valid).toBe(true);
    const first = await vi.waitFor(
      async () => {
        const value = (await keyRow(api_key.id)).last_used_at;
        expect(value).not.toBeNull();
        return new Date(value);
      },
      { timeout: 5000, interval: 20 },
    );

    const rawFirst = (await keyRow(api_key.id)).last_used_at;
    expect((await verify({ key: plaintext })).body.valid).toBe(true);
    // The update is written in the background: look a few times so a late rewrite would be seen.
    for (let i = 0; i < 5; i++) {
      await sleep(50);
      expect((await keyRow(api_key.id)).last_used_at).toEqual(rawFirst);
    }
    const listed = (await service.request('GET', `/v1/api-keys?tenant_id=${tenant.id}`)).body.items[0];
    expect(listed.last_used_at).toBe(first.toISOString());
  });

  it('a burst of verifies of many keys at once marks every one of them as used', async () => {
    const tenant = await createTenant();
    const keys = await Promise.all(Array.from({ length: 40 }, () => createKey(tenant.id)));
    const verdicts = await Promise.all(keys.map(({ plaintext }) => verify({ key: plaintext })));
    expect(verdicts.every((res) => res.body.valid === true)).toBe(true);
    await vi.waitFor(
      async () => {
        const rows = await Promise.all(keys.map(({ api_key }) => keyRow(api_key.id)));
        expect(rows.filter((row) => row.last_used_at === null)).toHaveLength(0);
      },
      { timeout: 5000, interval: 50 },
    );
  });

  it('a failed verify does not touch last_used_at', async () => {
    const tenant = await createTenant();
    const { api_key, plaintext } = await createKey(tenant.id);
    await service.request('DELETE', `/v1/api-keys/${api_key.id}`);
    expect((await verify({ key: plaintext })).body.valid).toBe(false);
    await sleep(100);
    expect((await keyRow(api_key.id)).last_used_at).toBeNull();
  });
});
