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
    expect(service.deps.cache?.apiKeys.get(api_key.prefix)).toMatchObject({ id: api_key.id, revoked: false });
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

const rotate = (id: string, body?: unknown) => service.request('POST', `/v1/api-keys/${id}/rotate`, body);

describe('API key expiry (POST /v1/api-keys expires_at)', () => {
  it('a key with a future expires_at verifies with that expires_at until it passes, then answers EXPIRED', async () => {
    const tenant = await createTenant();
    const expiresAt = new Date(Date.now() + 1500).toISOString();
    const { api_key, plaintext } = await createKey(tenant.id, { expires_at: expiresAt });
    expect(api_key.expires_at).toBe(expiresAt);
    expect((await verify({ key: plaintext })).body).toMatchObject({ valid: true, code: 'VALID', expires_at: expiresAt });
    await sleep(Date.parse(expiresAt) - Date.now() + 50);
    expect((await verify({ key: plaintext })).body).toEqual({ valid: false, code: 'EXPIRED' });
  });

  it('an expires_at in the past or now answers 400 and creates nothing', async () => {
    const tenant = await createTenant();
    const res = await service.request('POST', '/v1/api-keys', { tenant_id: tenant.id, name: 'late', expires_at: new Date(Date.now() - 1000).toISOString() });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_input');
    expect((await service.request('GET', `/v1/api-keys?tenant_id=${tenant.id}`)).body.items).toHaveLength(0);
  });

  it('a malformed expires_at answers 400', async () => {
    const tenant = await createTenant();
    const res = await service.request('POST', '/v1/api-keys', { tenant_id: tenant.id, name: 'x', expires_at: 'tomorrow' });
    expect(res.status).toBe(400);
  });
});

describe('verify with required_scopes and product', () => {
  it('answers INSUFFICIENT_SCOPE when a required scope is missing and VALID when all are on the key', async () => {
    const tenant = await createTenant();
    const { plaintext } = await createKey(tenant.id, { scopes: ['read', 'write'] });
    expect((await verify({ key: plaintext, required_scopes: ['read', 'write'] })).body.code).toBe('VALID');
    expect((await verify({ key: plaintext, required_scopes: ['read', 'admin'] })).body).toEqual({ valid: false, code: 'INSUFFICIENT_SCOPE' });
  });

  it('answers WRONG_PRODUCT for a key of another product; a key for no product fits any product', async () => {
    const tenant = await createTenant();
    const forAnalytics = await createKey(tenant.id, { product: 'analytics' });
    const forAny = await createKey(tenant.id);
    expect((await verify({ key: forAnalytics.plaintext, product: 'analytics' })).body.code).toBe('VALID');
    expect((await verify({ key: forAnalytics.plaintext, product: 'sso' })).body).toEqual({ valid: false, code: 'WRONG_PRODUCT' });
    expect((await verify({ key: forAny.plaintext, product: 'sso' })).body.code).toBe('VALID');
  });

  it('malformed requirements answer 200 and fail closed', async () => {
    const tenant = await createTenant();
    const { plaintext } = await createKey(tenant.id, { scopes: ['read'] });
    const res = await verify({ key: plaintext, required_scopes: 'read' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ valid: false, code: 'INSUFFICIENT_SCOPE' });
  });

  it('the key of a frozen tenant is TENANT_INACTIVE whatever the caller requires', async () => {
    const tenant = await createTenant();
    const { plaintext } = await createKey(tenant.id, { product: 'analytics' });
    expect((await service.request('POST', `/v1/tenants/${tenant.id}/cancel`)).status).toBe(200);
    expect((await verify({ key: plaintext, product: 'sso', required_scopes: ['x'] })).body).toEqual({ valid: false, code: 'TENANT_INACTIVE' });
  });
});

describe('POST /v1/api-keys/{id}/rotate', () => {
  it('with grace 0: 201 with a new key of the same tenant, product, scopes and name; the old key stops at once', async () => {
    const tenant = await createTenant();
    const old = await createKey(tenant.id, { product: 'analytics', scopes: ['read'], name: 'exporter' });
    expect((await verify({ key: old.plaintext })).body.valid).toBe(true);
    const res = await rotate(old.api_key.id, { grace_seconds: 0 });
    expect(res.status).toBe(201);
    expect(res.body.api_key).toMatchObject({ tenant_id: tenant.id, product: 'analytics', scopes: ['read'], name: 'exporter', rotated_from: old.api_key.id });
    expect(res.body.warning).toBeTruthy();
    expect((await verify({ key: res.body.plaintext })).body).toMatchObject({ valid: true, key_id: res.body.api_key.id });
    expect((await verify({ key: old.plaintext })).body).toEqual({ valid: false, code: 'EXPIRED' });
  });

  it('with a grace of a few seconds the old key keeps verifying during it and stops after it', async () => {
    const tenant = await createTenant();
    const old = await createKey(tenant.id);
    const res = await rotate(old.api_key.id, { grace_seconds: 2 });
    expect(res.status).toBe(201);
    expect((await verify({ key: old.plaintext })).body.code).toBe('VALID');
    expect((await verify({ key: res.body.plaintext })).body.code).toBe('VALID');
    const listed = (await service.request('GET', `/v1/api-keys?tenant_id=${tenant.id}`)).body.items as Array<Record<string, any>>;
    const oldEnd = Date.parse(listed.find((k) => k.id === old.api_key.id)!.expires_at);
    await sleep(oldEnd - Date.now() + 50);
    expect((await verify({ key: old.plaintext })).body).toEqual({ valid: false, code: 'EXPIRED' });
    expect((await verify({ key: res.body.plaintext })).body.code).toBe('VALID');
  });

  it('without a body the grace period is one day', async () => {
    const tenant = await createTenant();
    const old = await createKey(tenant.id);
    const before = Date.now();
    expect((await rotate(old.api_key.id)).status).toBe(201);
    const row = await keyRow(old.api_key.id);
    expect(new Date(row.expires_at).getTime()).toBeGreaterThanOrEqual(before + 86_400_000 - 1000);
  });

  it('a second rotation rotates the successor; rotating the replaced key again is 409', async () => {
    const tenant = await createTenant();
    const old = await createKey(tenant.id);
    const first = await rotate(old.api_key.id, { grace_seconds: 60 });
    expect(first.status).toBe(201);
    expect((await rotate(old.api_key.id, { grace_seconds: 60 })).status).toBe(409);
    const second = await rotate(first.body.api_key.id, { grace_seconds: 0 });
    expect(second.status).toBe(201);
    expect(second.body.api_key.rotated_from).toBe(first.body.api_key.id);
    expect((await verify({ key: first.body.plaintext })).body.code).toBe('EXPIRED');
    expect((await verify({ key: second.body.plaintext })).body.code).toBe('VALID');
    // The first key's grace is its own and still runs.
    expect((await verify({ key: old.plaintext })).body.code).toBe('VALID');
  });

  it('a revoked key cannot be rotated (409) and an expired one neither', async () => {
    const tenant = await createTenant();
    const revoked = await createKey(tenant.id);
    expect((await service.request('DELETE', `/v1/api-keys/${revoked.api_key.id}`)).status).toBe(204);
    const res = await rotate(revoked.api_key.id);
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('conflict');
    const expiring = await createKey(tenant.id, { expires_at: new Date(Date.now() + 300).toISOString() });
    await sleep(400);
    expect((await rotate(expiring.api_key.id)).status).toBe(409);
  });

  it('ten concurrent rotations of one key give one new key and nine 409s', async () => {
    const tenant = await createTenant();
    const old = await createKey(tenant.id);
    const results = await Promise.all(Array.from({ length: 10 }, () => rotate(old.api_key.id, { grace_seconds: 60 })));
    expect(results.map((r) => r.status).sort()).toEqual([201, ...Array(9).fill(409)]);
    const items = (await service.request('GET', `/v1/api-keys?tenant_id=${tenant.id}`)).body.items;
    expect(items).toHaveLength(2);
  });

  it('appends api_key.rotated with the new key and the grace period', async () => {
    const tenant = await createTenant();
    const old = await createKey(tenant.id);
    const res = await rotate(old.api_key.id, { grace_seconds: 120 });
    const events = (await service.request('GET', `/v1/audit?tenant_id=${tenant.id}&action=api_key.rotated`)).body.items;
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      target_id: old.api_key.id,
      target_type: 'api_key',
      metadata: { new_key_id: res.body.api_key.id, new_prefix: res.body.api_key.prefix, grace_seconds: 120 },
    });
  });

  it.each([
    ['a negative grace', { grace_seconds: -1 }],
    ['a grace over 30 days', { grace_seconds: 2_592_001 }],
    ['a fractional grace', { grace_seconds: 1.5 }],
    ['an unknown field', { grace: 10 }],
  ])('%s answers 400', async (_label, body) => {
    const tenant = await createTenant();
    const old = await createKey(tenant.id);
    expect((await rotate(old.api_key.id, body)).status).toBe(400);
  });

  it('an unknown key answers 404 and a malformed id 400', async () => {
    expect((await rotate(randomUUID())).status).toBe(404);
    expect((await rotate('nope')).status).toBe(400);
  });
});
