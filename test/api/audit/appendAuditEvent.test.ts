import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/testService.ts';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.close());

const append = (body: unknown, key?: string) => service.request('POST', '/v1/audit', body, key === undefined ? {} : { 'idempotency-key': key });
const countOf = async (action: string) => (await service.request('GET', `/v1/audit?action=${action}&limit=500`)).body.items.length;

describe('POST /v1/audit with Idempotency-Key', () => {
  it('the same key twice answers 201 with the same event and appends once', async () => {
    const key = randomUUID();
    const action = `idem.${key.slice(0, 8)}`;
    const first = await append({ action, metadata: { a: 1, b: [1, 2] } }, key);
    const again = await append({ metadata: { b: [1, 2], a: 1 }, action }, key);
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(await countOf(action)).toBe(1);
  });

  it('ten concurrent requests with one key append exactly one event and all answer it', async () => {
    const key = randomUUID();
    const action = `idem.concurrent.${key.slice(0, 8)}`;
    const results = await Promise.all(Array.from({ length: 10 }, () => append({ action }, key)));
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(201));
    expect(new Set(results.map((r) => r.body.id)).size).toBe(1);
    expect(await countOf(action)).toBe(1);
  });

  it('the same key with a different body answers 409 and appends nothing', async () => {
    const key = randomUUID();
    const action = `idem.conflict.${key.slice(0, 8)}`;
    expect((await append({ action }, key)).status).toBe(201);
    const other = await append({ action, metadata: { changed: true } }, key);
    expect(other.status).toBe(409);
    expect(other.body.error).toBe('conflict');
    expect(await countOf(action)).toBe(1);
  });

  it('without a key each append is its own event', async () => {
    const action = `idem.none.${randomUUID().slice(0, 8)}`;
    await append({ action });
    await append({ action });
    expect(await countOf(action)).toBe(2);
  });

  it('a key older than 24 hours no longer answers: the append is new', async () => {
    const key = randomUUID();
    const action = `idem.old.${key.slice(0, 8)}`;
    const first = await append({ action }, key);
    await service.orm.em.fork().execute(`update audit_idempotency_keys set created_at = now() - interval '25 hours' where key = ?`, [key]);
    const second = await append({ action }, key);
    expect(second.status).toBe(201);
    expect(second.body.id).not.toBe(first.body.id);
    expect(await countOf(action)).toBe(2);
  });

  it('an empty key and one over 255 characters answer 400; 255 characters are accepted', async () => {
    expect((await append({ action: 'idem.bad' }, '')).status).toBe(400);
    expect((await append({ action: 'idem.bad' }, 'k'.repeat(256))).status).toBe(400);
    expect((await append({ action: 'idem.long' }, `${randomUUID()}${'k'.repeat(219)}`)).status).toBe(201);
  });
});

describe('POST /v1/audit and the service-owned actions', () => {
  it.each([
    'tenant.created', 'api_key.revoked', 'entitlement.expired', 'catalog.product_requested', 'idp.invite_sent', 'audit.stream_created',
    'permission.created', 'role.updated', 'member.roles_changed',
  ])(
    'refuses %s with 400 and appends nothing: only the service writes its own actions',
    async (action) => {
      const tenantId = randomUUID();
      const res = await append({ action, tenant_id: tenantId, metadata: { outcome_id: 'forged' } });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: 'invalid_input', message: expect.stringContaining('written by the service only') });
      expect((await service.request('GET', `/v1/audit?tenant_id=${tenantId}`)).body.items).toEqual([]);
    },
  );

  it("refuses actor_type system with 400 and appends nothing: only the service's own events are the system's", async () => {
    const action = `pose.system.${randomUUID().slice(0, 8)}`;
    const res = await append({ action, actor_id: 'tenant-registry', actor_type: 'system' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'invalid_input', message: expect.stringContaining('actor_type system') });
    expect(await countOf(action)).toBe(0);
    expect((await append({ action, actor_type: 'service' })).status).toBe(201);
  });

  it.each(['portal', 'directory', 'System', 'SYSTEM', ' system', 'Portal', 'DIRECTORY '])(
    'refuses actor_type %j with 400 and appends nothing: every actor type the service writes, in any letter case',
    async (actorType) => {
      const action = `pose.actor.${randomUUID().slice(0, 8)}`;
      const res = await append({ action, actor_id: 'portal:forged', actor_type: actorType });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: 'invalid_input', message: expect.stringContaining('written by the service only') });
      expect(await countOf(action)).toBe(0);
    },
  );

  it.each(['Member.removed', 'TENANT.created', 'Portal.link_opened', 'Directory.user_deleted', ' role.updated', 'API_KEY.revoked'])(
    'refuses the action %j with 400: a service-owned prefix in any letter case',
    async (action) => {
      const tenantId = randomUUID();
      const res = await append({ action, tenant_id: tenantId });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: 'invalid_input', message: expect.stringContaining('written by the service only') });
      expect((await service.request('GET', `/v1/audit?tenant_id=${tenantId}`)).body.items).toEqual([]);
    },
  );

  it('the OpenAPI document states both refusals (the service\'s actor types; no service-owned prefix, catalog. included, in any case), as the schema enforces them', async () => {
    const schema = (await service.request('GET', '/openapi.json')).body.components.schemas.AuditAppendRequest;
    const actorType = new RegExp(schema.properties.actor_type.not.pattern);
    for (const refused of ['system', 'Portal', 'DIRECTORY']) expect(actorType.test(refused), refused).toBe(true);
    for (const allowed of ['service', 'user', 'systems']) expect(actorType.test(allowed), allowed).toBe(false);
    const action = new RegExp(schema.properties.action.not.pattern);
    for (const refused of ['catalog.product_requested', 'Member.removed']) expect(action.test(refused), refused).toBe(true);
    expect(action.test('billing.tenant.created')).toBe(false);
  });

  it('accepts actions that merely contain or resemble those prefixes', async () => {
    for (const action of ['billing.tenant.created', 'tenants.viewed', 'idp_sync.ran']) expect((await append({ action })).status).toBe(201);
  });

  it('refuses a recorded_by in the body: no caller sets who wrote an event', async () => {
    const res = await append({ action: 'forge.recorder', recorded_by: 'tenant-registry' });
    expect(res.status).toBe(400);
  });

  it('leaves recorded_by out when authentication is off (no one is authenticated)', async () => {
    const res = await append({ action: 'plain.append', actor_id: 'user-7' });
    expect(res.status).toBe(201);
    expect(res.body.actor_id).toBe('user-7');
    expect(res.body).not.toHaveProperty('recorded_by');
  });
});
